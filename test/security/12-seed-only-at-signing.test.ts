/**
 * Attack 12 (first half): the worker decrypted the seed while preparing a purchase, to derive the
 * payer wallet's public key. The gateway now stores the payer's public key at intake, so the seed
 * is decrypted only to sign. Purchases go through the real gateway intake and the real worker
 * (sandbox chain and Fragment simulator); every opening of a sealed seed is recorded with the
 * call path that asked for it.
 */
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import type { Gateway } from '@starsgate/gateway';
import { WorkerHarness } from '@starsgate/worker/testing';
import { operatorGateway } from '../support/operator-gateway';

jest.setTimeout(240_000);

const TOKEN = 'seed-opening-token-0123456789abcdef';
let h: WorkerHarness;
let gateway: Gateway;
const openings: string[] = [];

beforeAll(async () => {
  h = await WorkerHarness.start();
  gateway = operatorGateway(h, TOKEN);
  // Calls through to the real vault; only remembers who asked.
  const open = h.vault.open.bind(h.vault);
  h.vault.open = (recordId, sealed) => {
    openings.push(new Error('opened').stack ?? '');
    return open(recordId, sealed);
  };
});
afterAll(async () => {
  await h?.close();
});

test.each([
  ['a 12-word seed (account fixed at intake)', 'bip39-0', { account_index: 0 }],
  ['a 24-word seed (version chosen by the worker)', 'ton24-v4r2', {}],
] as const)(
  '%s: the payer key is stored at intake and the seed is opened only to sign',
  async (_name, walletId, selection) => {
    openings.length = 0;
    const accepted = await request(gateway.app)
      .post('/api/v1/purchases')
      .send({
        product: 'stars',
        username: '@alice',
        amount: 50,
        payment_method: 'gram',
        seed: h.wallet(walletId).seed,
        ...selection,
        idempotency_key: randomUUID(),
      });
    expect(accepted.status).toBe(202);
    const stored = await h.find(accepted.body.purchase_id as string);
    expect(stored.payerPublicKey).toMatch(/^[0-9a-f]{64}$/);

    const done = await h.waitFor(stored.id);
    expect(done.status).toBe('completed');
    expect(openings.length).toBeGreaterThan(0);
    // Signing is the wallet sender's batch assembly (it derives the key pair); resolving the payer wallet is not.
    const outsideSigning = openings.filter(
      (stack) => !/\bsignForWallet\b/.test(stack) || /resolvePayerWallet/.test(stack),
    );
    expect(outsideSigning).toEqual([]);
  },
);
