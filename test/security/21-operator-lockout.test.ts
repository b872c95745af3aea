/**
 * Attack 21 (docs/security.md): operators could be locked out. Failed guesses from enough clients
 * together locked every operator out for the whole window, the right token included; the public
 * listener's `TRUST_PROXY` applied to the operator listener too, where nothing sits in front, so
 * one host invented clients with `X-Forwarded-For`; and the operator listener bound every
 * interface. Now a client that has not failed still gets its right token checked, the operator
 * listener has its own proxy setting (`ADMIN_TRUST_PROXY`, none by default) and binds loopback
 * unless `ADMIN_HOST` says otherwise.
 */
import { readFileSync } from 'node:fs';
import { loadGatewayConfig } from '@starsgate/gateway';
import { startStack, type RunningStack } from '../support/running-stack';
import { requestFrom } from './support/request-from';

const PER_CLIENT = 3;
const GLOBAL = 6;

/** The local addresses of the sockets listening on `port` (IPv4 and IPv6), as the kernel lists them. */
function listeningAddresses(port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].flatMap((table) =>
    readFileSync(table, 'utf8')
      .split('\n')
      .slice(1)
      .map((line) => line.trim().split(/\s+/))
      .filter((fields) => fields[3] === '0A' && fields[1]?.endsWith(`:${hexPort}`))
      .map((fields) => fields[1]!.split(':')[0]!),
  );
}

describe('the operator listener at config parse', () => {
  it('binds loopback and believes no X-Forwarded-For unless configured', () => {
    const config = loadGatewayConfig({ TRUST_PROXY: '1' });
    expect(config.adminHost).toBe('127.0.0.1');
    expect(config.adminTrustProxy).toBe(false);
    expect(loadGatewayConfig({ ADMIN_HOST: '0.0.0.0', ADMIN_TRUST_PROXY: '10.0.0.1' })).toMatchObject({
      adminHost: '0.0.0.0',
      adminTrustProxy: ['10.0.0.1'],
    });
    expect(() => loadGatewayConfig({ ADMIN_TRUST_PROXY: 'true' })).toThrow(
      /ADMIN_TRUST_PROXY=true would trust every hop/,
    );
  });
});

describe('a running stack behind one ingress (TRUST_PROXY=1)', () => {
  let stack: RunningStack;
  let stats: string;
  const bearer = (token: string, forwardedFor?: string) => ({
    headers: {
      authorization: `Bearer ${token}`,
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
  });

  beforeAll(async () => {
    stack = await startStack({
      TRUST_PROXY: '1',
      ADMIN_AUTH_FAILURES_PER_CLIENT: String(PER_CLIENT),
      ADMIN_AUTH_FAILURES_GLOBAL: String(GLOBAL),
      ADMIN_AUTH_FAILURE_WINDOW_SECONDS: '120',
    });
    stats = `${stack.adminUrl}/admin/api/stats`;
  }, 240_000);
  afterAll(() => stack?.stop());

  it('the operator listener binds loopback only, while the public one binds every interface as HOST says', () => {
    expect(listeningAddresses(Number(new URL(stack.adminUrl).port))).toEqual(['0100007F']);
    expect(listeningAddresses(Number(new URL(stack.gatewayUrl).port))).not.toContain('0100007F');
  });

  it('ignores X-Forwarded-For on the operator listener: one host cannot pose as many clients', async () => {
    for (let guess = 0; guess < PER_CLIENT; guess += 1) {
      const answer = await requestFrom(
        stats,
        '127.0.0.20',
        bearer(`guess-${guess}-${'x'.repeat(40)}`, `203.0.113.${guess + 1}`),
      );
      expect(answer.status).toBe(403);
    }
    const locked = await requestFrom(stats, '127.0.0.20', bearer(stack.adminToken, '203.0.113.99'));
    expect([locked.status, locked.body.code]).toEqual([429, 'ADMIN_AUTH_RATE_LIMITED']);
  });

  it('keeps a right token working for a client that has not failed, after everyone together failed too often', async () => {
    for (let client = 0; client < GLOBAL - PER_CLIENT; client += 1) {
      const answer = await requestFrom(stats, `127.0.0.${client + 30}`, bearer(`spread-${client}-${'y'.repeat(40)}`));
      expect(answer.status).toBe(403);
    }
    expect((await requestFrom(stats, '127.0.0.40', bearer(stack.adminToken))).status).toBe(200);
    const login = await requestFrom(`${stack.adminUrl}/admin/login`, '127.0.0.41', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.adminUrl },
      body: JSON.stringify({ token: stack.adminToken, operator: 'alice' }),
    });
    expect(login.status).toBe(200);
  });
});
