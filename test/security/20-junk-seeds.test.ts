/**
 * Attack 20 (docs/security.md): any seed with a space in it was charged to the global budget of key
 * derivations before it was validated, and a purchase's charge may take the reserve, so a few
 * clients sending `"seed": "a b"` to the purchase route spent the budget and every new-mnemonic
 * purchase got 429. Now only a request the route will derive is charged: its body passes the
 * schema and its seed is a valid mnemonic (word list and checksum; a TON seed for 24 words).
 */
import { generateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english';
import { starsOrder } from '@starsgate/gateway/testing';
import { startStack, type RunningStack } from '../support/running-stack';
import { requestFrom } from './support/request-from';

const DERIVATIONS = 6;
const RESERVED = 3;

/** 12 words of the list whose checksum is wrong, and 24 words that are no TON seed. */
const BAD_CHECKSUM = 'abandon '.repeat(11) + 'zoo';
const NOT_A_TON_SEED = Array(24).fill('abandon').join(' ');

const JUNK: Array<{ path: string; body: Record<string, unknown> }> = [
  { path: '/api/v1/purchases', body: starsOrder({ seed: 'a b' }) },
  { path: '/api/v1/purchases', body: starsOrder({ seed: BAD_CHECKSUM }) },
  { path: '/api/v1/purchases', body: starsOrder({ seed: NOT_A_TON_SEED, account_index: undefined }) },
  { path: '/api/v1/purchases', body: starsOrder({ seed: 'seven words that are not a seed phrase' }) },
  // A valid mnemonic in a request the route refuses before deriving anything.
  { path: '/api/v1/purchases', body: starsOrder({ seed: generateMnemonic(wordlist), username: 'not a username!' }) },
  { path: '/api/v1/purchases', body: starsOrder({ seed: generateMnemonic(wordlist), account_index: undefined }) },
  { path: '/api/v1/wallets/resolve', body: { seed: 'a b' } },
  { path: '/api/v1/wallets/resolve', body: { seed: BAD_CHECKSUM, account_index: 0 } },
];

describe('junk seeds on a running stack', () => {
  let stack: RunningStack;
  const post = (path: string, body: unknown, from: string) =>
    requestFrom(`${stack.gatewayUrl}${path}`, from, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    stack = await startStack({
      MNEMONIC_RATE_LIMIT_MAX: '100',
      KEY_DERIVATIONS_PER_MINUTE: String(DERIVATIONS),
      KEY_DERIVATIONS_RESERVED_FOR_PURCHASES: String(RESERVED),
    });
  }, 240_000);
  afterAll(() => stack?.stop());

  it('are refused with a 400 and charge nothing: the budget and its reserve stay whole', async () => {
    // Three rounds from many clients: four times the whole budget.
    for (let round = 0; round < 3; round += 1)
      for (const [index, junk] of JUNK.entries()) {
        const answer = await post(junk.path, junk.body, `127.0.3.${round * JUNK.length + index + 1}`);
        expect({ path: junk.path, status: answer.status }).toEqual({ path: junk.path, status: 400 });
      }

    // Wallet resolutions still get their share, and stop short of the reserve.
    for (let client = 0; client < DERIVATIONS - RESERVED; client += 1) {
      const resolved = await post(
        '/api/v1/wallets/resolve',
        { seed: generateMnemonic(wordlist), account_index: 0 },
        `127.0.4.${client + 1}`,
      );
      expect(resolved.status).toBe(200);
    }
    const beyond = await post(
      '/api/v1/wallets/resolve',
      { seed: generateMnemonic(wordlist), account_index: 0 },
      '127.0.4.99',
    );
    expect([beyond.status, beyond.body.code]).toEqual([429, 'RATE_LIMITED']);

    // The reserve is there for purchases, and only then is the budget spent.
    for (let client = 0; client < RESERVED; client += 1) {
      const accepted = await post(
        '/api/v1/purchases',
        starsOrder({ seed: generateMnemonic(wordlist) }),
        `127.0.5.${client + 1}`,
      );
      expect(accepted.status).toBe(202);
    }
    const spent = await post('/api/v1/purchases', starsOrder({ seed: generateMnemonic(wordlist) }), '127.0.5.99');
    expect([spent.status, spent.body.code]).toEqual([429, 'RATE_LIMITED']);
  });
});
