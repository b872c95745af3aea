/**
 * Attack 3 (docs/security.md): admin tokens could be guessed at any rate. Failed admin
 * authentications are now limited per client and in total, and tokens are at least 32 characters.
 * Past the total, a client that failed once is locked (attack 21: a right token from a client that
 * has not failed still works, test/security/21-operator-lockout.test.ts).
 */
import { execFile } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { loadGatewayConfig } from '@starsgate/gateway';
import { startStack, type RunningStack } from '../support/running-stack';

const PER_CLIENT = 5;
const GLOBAL = 8;

interface Answer {
  status: number;
  body: { code?: string; retry_after?: number };
  retryAfter: string | undefined;
}

/** One request from a chosen loopback source address: each address is its own client. */
function send(
  url: string,
  from: string,
  options: { method?: string; token?: string; body?: unknown; origin?: string },
): Promise<Answer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        localAddress: from,
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(payload ? { 'Content-Type': 'application/json', Origin: options.origin } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: text ? (JSON.parse(text) as Answer['body']) : {},
            retryAfter: res.headers['retry-after'],
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('admin token length', () => {
  it('refuses a token shorter than 32 characters, naming how to make one', () => {
    expect(() => loadGatewayConfig({ STARSGATE_ADMIN_TOKENS: 'twenty-chars-token-1' })).toThrow(
      /STARSGATE_ADMIN_TOKENS: every token needs at least 32 random characters.*starsgate admin-token/,
    );
  });

  it('accepts the token `starsgate admin-token` generates', async () => {
    const bin = path.resolve(__dirname, '../../node_modules/.bin/starsgate');
    const token = await new Promise<string>((resolve, reject) =>
      execFile(bin, ['admin-token'], (error, stdout) =>
        error ? reject(new Error(error.message)) : resolve(stdout.trim()),
      ),
    );
    expect(loadGatewayConfig({ STARSGATE_ADMIN_TOKENS: token }).adminTokens).toEqual([token]);
  });
});

describe('guessing admin tokens on a running stack', () => {
  let stack: RunningStack;
  let stats: string;
  beforeAll(async () => {
    stack = await startStack({
      ADMIN_AUTH_FAILURES_PER_CLIENT: String(PER_CLIENT),
      ADMIN_AUTH_FAILURES_GLOBAL: String(GLOBAL),
      ADMIN_AUTH_FAILURE_WINDOW_SECONDS: '120',
    });
    stats = `${stack.adminUrl}/admin/api/stats`;
  }, 240_000);
  afterAll(() => stack?.stop());

  it('locks a client out after its failed guesses, its right token included', async () => {
    expect((await send(stats, '127.0.0.1', { token: stack.adminToken })).status).toBe(200);
    for (let guess = 0; guess < PER_CLIENT; guess += 1)
      expect((await send(stats, '127.0.0.1', { token: `guess-${guess}-${'x'.repeat(40)}` })).status).toBe(403);
    const locked = await send(stats, '127.0.0.1', { token: 'one-more-guess-xxxxxxxxxxxxxxxxxxxxxxxx' });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe('ADMIN_AUTH_RATE_LIMITED');
    expect(locked.body.retry_after).toBeGreaterThan(0);
    expect(Number(locked.retryAfter)).toBe(locked.body.retry_after);
    expect((await send(stats, '127.0.0.1', { token: stack.adminToken })).status).toBe(429);
    // Another client is not locked out by this one's guesses.
    expect((await send(stats, '127.0.0.2', { token: stack.adminToken })).status).toBe(200);
  });

  it('past the global limit, slows guessing to one try per client (the dashboard login counts too)', async () => {
    for (let guess = 0; guess < GLOBAL - PER_CLIENT; guess += 1)
      expect((await send(stats, '127.0.0.3', { token: `spread-${guess}-${'y'.repeat(40)}` })).status).toBe(403);
    // 127.0.0.3 is below its own limit, but it failed while everyone's failures are at theirs.
    const slowed = await send(stats, '127.0.0.3', { token: stack.adminToken });
    expect(slowed.status).toBe(429);
    expect(slowed.body.code).toBe('ADMIN_AUTH_RATE_LIMITED');
    // A new client gets one guess, and is locked after it.
    expect((await send(stats, '127.0.0.4', { token: `one-guess-${'z'.repeat(40)}` })).status).toBe(403);
    expect((await send(stats, '127.0.0.4', { token: stack.adminToken })).status).toBe(429);
    const login = await send(`${stack.adminUrl}/admin/login`, '127.0.0.5', {
      method: 'POST',
      origin: stack.adminUrl,
      body: { token: `one-login-guess-${'w'.repeat(40)}`, operator: 'mallory' },
    });
    expect(login.status).toBe(403);
    const relogin = await send(`${stack.adminUrl}/admin/login`, '127.0.0.5', {
      method: 'POST',
      origin: stack.adminUrl,
      body: { token: stack.adminToken, operator: 'mallory' },
    });
    expect(relogin.status).toBe(429);
    expect(relogin.body.code).toBe('ADMIN_AUTH_RATE_LIMITED');
  });
});
