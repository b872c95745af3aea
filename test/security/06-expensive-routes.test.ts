/**
 * Attack 6 (docs/security.md): wallet resolution (chain reads on the operator's key), availability
 * (the Fragment read budget), checkouts (chain reads) and every request carrying a mnemonic (one
 * PBKDF2 derivation, 100 000 rounds for a TON 24-word seed) lived under the one general limit of
 * 600 a minute per client. They now have their own lower limits, and mnemonic derivations draw on
 * a global budget whose reserve only purchases may use.
 */
import { request } from 'node:http';
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { starsOrder } from '@starsgate/gateway/testing';
import { startStack, type RunningStack } from '../support/running-stack';

const WALLET_LIMIT = 3;
const DERIVATIONS = 6;
const RESERVED = 3;

function post(
  stack: RunningStack,
  path: string,
  body: unknown,
  from = '127.0.0.1',
): Promise<{ status: number; code?: string; retryAfter?: number }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${stack.gatewayUrl}${path}`,
      { method: 'POST', localAddress: from, headers: { 'Content-Type': 'application/json' } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () => {
          const parsed = JSON.parse(text) as { code?: string; retry_after?: number };
          resolve({ status: res.statusCode ?? 0, code: parsed.code, retryAfter: parsed.retry_after });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('expensive anonymous routes on a running stack', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack({
      WALLET_RESOLVE_RATE_LIMIT_MAX: String(WALLET_LIMIT),
      MNEMONIC_RATE_LIMIT_MAX: '100',
      KEY_DERIVATIONS_PER_MINUTE: String(DERIVATIONS),
      KEY_DERIVATIONS_RESERVED_FOR_PURCHASES: String(RESERVED),
    });
  }, 240_000);
  afterAll(() => stack?.stop());

  it('limits wallet resolution per client far below the general limit', async () => {
    const key = { seed: 'A'.repeat(43) + '=' };
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= WALLET_LIMIT; attempt += 1)
      statuses.push((await post(stack, '/api/v1/wallets/resolve', key, '127.0.0.21')).status);
    expect(statuses.slice(0, WALLET_LIMIT).every((status) => status !== 429)).toBe(true);
    const limited = await post(stack, '/api/v1/wallets/resolve', key, '127.0.0.21');
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect(limited.retryAfter).toBeGreaterThan(0);
  });

  it('keeps a reserve of key derivations that wallet resolution cannot spend and purchases can', async () => {
    const resolutions: Array<{ status: number; code?: string }> = [];
    // Each from its own client, so only the global budget stops them.
    for (let client = 0; client < DERIVATIONS; client += 1)
      resolutions.push(
        await post(
          stack,
          '/api/v1/wallets/resolve',
          { seed: generateMnemonic(wordlist), account_index: 0 },
          `127.0.1.${client + 1}`,
        ),
      );
    const allowed = DERIVATIONS - RESERVED;
    expect(resolutions.slice(0, allowed).every((answer) => answer.status !== 429)).toBe(true);
    expect(resolutions.slice(allowed).map((answer) => answer.code)).toEqual(
      Array.from({ length: RESERVED }, () => 'RATE_LIMITED'),
    );

    // The reserve is still there for purchases carrying a seed phrase.
    for (let client = 0; client < RESERVED; client += 1) {
      const accepted = await post(
        stack,
        '/api/v1/purchases',
        starsOrder({ seed: generateMnemonic(wordlist) }),
        `127.0.2.${client + 1}`,
      );

      expect(accepted.status).toBe(202);
    }
    const spent = await post(
      stack,
      '/api/v1/purchases',
      starsOrder({ seed: generateMnemonic(wordlist) }),
      '127.0.2.99',
    );
    expect(spent).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
  });
});
