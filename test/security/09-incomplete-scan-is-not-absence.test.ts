/**
 * Attack 9 (docs/security.md): an incomplete scan read as absence. The worker looks for a
 * purchase's payment by the normalized hash of its external, paging back through the payer
 * wallet's history within a page cap (1000 transactions). A paid purchase whose worker was away
 * while more than that many dust transfers arrived used to be settled `failed NOT_EXECUTED` once its
 * valid_until passed: the shop tells the buyer nothing was paid, and it was. An inconclusive scan is
 * now uncertain: `reconciliation_required`, never `failed`.
 */
import { Address } from '@ton/core';
import { WorkerHarness } from '@starsgate/worker/testing';

jest.setTimeout(300_000);

/** More than the scan's page cap (20 pages of 50) of newer transactions. */
const DUST_TRANSFERS = 1_050;
let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ fragment: { validitySeconds: 30 }, env: { VALID_UNTIL_MARGIN_MS: '1000' } });
});

afterAll(async () => {
  h?.sandbox.chain.faults.set({});
  await h?.close();
});

test('a paid purchase buried under more transactions than the scan reads ends reconciliation_required, not failed', async () => {
  const wallet = Address.parse(h.wallet('base64-v5r1').rawAddress);
  // The external waits a few seconds before a block includes it, so the worker cannot see it land before it leaves.
  h.sandbox.chain.faults.set({ inclusionDelayMs: 4_000 });
  const created = await h.createPurchase({
    product: 'stars',
    username: '@dave',
    amount: 50,
    payment_method: 'gram',
    seed: h.wallet('base64-v5r1').seed,
  });
  await h.waitFor(created.id, ['submitted', 'confirming', 'completed', 'failed', 'reconciliation_required']);
  await h.stopWorker();
  h.sandbox.chain.faults.set({});
  const signed = await h.find(created.id);
  expect(signed.status === 'submitted' || signed.status === 'confirming').toBe(true);

  // The payment lands while the worker is away.
  const deadline = Date.now() + 30_000;
  while ((await h.chain.getSeqno(wallet)) <= signed.seqno!) {
    if (Date.now() > deadline) throw new Error('the payment did not land');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Then anyone buries it under dust transfers, all in the next block.
  // (Each fund resolves once its block is indexed. The sandbox's index, like a provider's, keeps
  // an account's newest 1000 transactions: the payment is then beyond what the provider serves too.)
  await Promise.all(Array.from({ length: DUST_TRANSFERS }, () => h.sandbox.chain.fund(wallet, { gram: 1_000n })));
  const wait = signed.validUntil! * 1000 + 1000 + 500 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));

  h.startWorker();
  const row = await h.waitFor(created.id, ['completed', 'failed', 'reconciliation_required'], 90_000);
  expect({ status: row.status, code: (row.error as { code?: string } | null)?.code }).toEqual({
    status: 'reconciliation_required',
    code: 'OUTCOME_UNKNOWN',
  });
  // The payment did execute: Fragment saw it and delivered this purchase's order.
  expect(h.deliveredCount(row.fragmentRef)).toBe(1);
});
