/**
 * Attack 26 (docs/security.md): an admin token's id in audit records and logs was the first 48
 * bits of its unkeyed SHA-256, so a copy of the audit table or the logs confirmed guessed tokens
 * offline; and a token of 32 identical characters passed the length check. Ids are now keyed with
 * the gateway's own secret, and tokens need real entropy.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { connectDatabase } from '@starsgate/db';
import { adminTokenId, loadGatewayConfig } from '@starsgate/gateway';
import { startStack, type RunningStack } from '../support/running-stack';
import { gatewayKeys } from './support/stack-client';

const unkeyedId = (token: string): string => createHash('sha256').update(token).digest('hex').slice(0, 12);

describe('admin token entropy at config parse', () => {
  it.each([
    ['32 identical characters', 'x'.repeat(32)],
    ['a short pattern repeated', 'abcd'.repeat(8)],
    ['a word repeated', 'password'.repeat(4)],
    ['few characters', '01'.repeat(10) + '10'.repeat(6)],
  ])('refuses %s, without echoing it', (_what, token) => {
    let message = '';
    try {
      loadGatewayConfig({ STARSGATE_ADMIN_TOKENS: `${'k'.repeat(8)}${'Zq3vR8mW1xT6yB0nC4pL7sD2'},${token}` });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/STARSGATE_ADMIN_TOKENS: every token needs at least 32 random characters \(token 2: /);
    expect(message).not.toContain(token);
  });

  it('accepts random tokens: `starsgate admin-token`, 32 hex digits, base64', async () => {
    const bin = path.resolve(__dirname, '../../node_modules/.bin/starsgate');
    const generated = (await promisify(execFile)(bin, ['admin-token'])).stdout.trim();
    const tokens = [generated, 'c0ffee1d2e3f4a5b6c7d8e9f0a1b2c3d', 'q3Zt7Yp1Lw9Xb5Nr2Kc8Vd4Mf6Hj0Gs/A1B2C3D4E5=='];
    expect(loadGatewayConfig({ STARSGATE_ADMIN_TOKENS: tokens.join(',') }).adminTokens).toEqual(tokens);
  });
});

describe('admin token ids on a running stack', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack();
  }, 240_000);
  afterAll(() => stack?.stop());

  it('names the token in audit records by a hash keyed with the gateway’s secret, never by its plain hash', async () => {
    const created = await fetch(`${stack.adminUrl}/admin/api/webhook-endpoints`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    });
    expect(created.status).toBe(201);
    const database = connectDatabase(stack.database.url, { max: 1 });
    try {
      const { rows } = await database.pool.query<{ actor: string; token_id: string }>(
        'SELECT actor, token_id FROM admin_actions',
      );
      const keyed = adminTokenId(stack.adminToken, gatewayKeys(stack));
      expect(rows).toEqual([{ actor: `token:${keyed}`, token_id: keyed }]);
      expect(keyed).not.toContain(unkeyedId(stack.adminToken));
    } finally {
      await database.close();
    }
  });
});
