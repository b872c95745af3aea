/**
 * The evidence collector on reconciliation cases produced by sandbox faults: it attaches what it
 * finds while the evidence is inconclusive, and settles a case itself only once it is conclusive
 * (paid on chain and delivered by Fragment; expired without executing), recording why.
 */
import { Address } from '@ton/core';
import { AdminPurchaseReads } from '@starsgate/db';
import { collectEvidence, EVIDENCE_COLLECTOR } from '../src/reconciliation/evidence-collector';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let reads: AdminPurchaseReads;

beforeAll(async () => {
  h = await WorkerHarness.start({
    fragment: { validitySeconds: 20, slowDoneDelayMs: 6_000 },
    env: { CONFIRMING_MAX_AGE_MS: '2500', VALID_UNTIL_MARGIN_MS: '2000' },
  });
  reads = new AdminPurchaseReads(h.database.db);
});

afterAll(async () => {
  await h?.close();
});

const order = (overrides: Partial<PurchaseInput> = {}): PurchaseInput => ({
  product: 'stars',
  username: '@carol',
  amount: 50,
  payment_method: 'gram',
  seed: h.wallet('base64-v5r1').seed,
  ...overrides,
});

const collectorEvidence = async (id: string) =>
  ((await h.find(id)).evidence as { collector?: Record<string, unknown> }).collector;

test('a paid case Fragment delivers late: evidence attached while undelivered, completed once delivered', async () => {
  h.sandbox.fragment!.configure({ faults: { done: 'slow' } });
  const created = await h.createPurchase(order());
  const row = await h.waitFor(created.id);
  expect({ status: row.status, code: (row.error as { code: string }).code }).toEqual({
    status: 'reconciliation_required',
    code: 'DELIVERY_UNCONFIRMED',
  });

  const early = await collectEvidence(h.deps, reads);
  expect(early.settled).toBe(0);
  expect((await h.find(created.id)).status).toBe('reconciliation_required');
  expect(await collectorEvidence(created.id)).toMatchObject({
    chain: { paid: true, transaction_hash: row.transactionHash },
    fragment: { delivered: false },
  });

  // Fragment delivers after slowDoneDelayMs.
  const deadline = Date.now() + 30_000;
  while (h.deliveredCount(row.fragmentRef) === 0 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 200));
  expect(h.deliveredCount(row.fragmentRef)).toBe(1);
  const late = await collectEvidence(h.deps, reads);
  expect(late.settled).toBe(1);
  const settled = await h.find(created.id);
  expect({ status: settled.status, error: settled.error, transactionHash: settled.transactionHash }).toEqual({
    status: 'completed',
    error: null,
    transactionHash: row.transactionHash,
  });
  const last = (await h.purchases.events(created.id)).at(-1)!;
  expect(last).toMatchObject({
    fromStatus: 'reconciliation_required',
    toStatus: 'completed',
    actor: EVIDENCE_COLLECTOR,
  });
  expect(last.reason).toMatch(/paid on chain .* Fragment's (history|status) shows this order delivered/);
  expect(h.paymentsByRef(row.walletAddress!).get(row.fragmentRef!)).toBe(1);
  h.sandbox.fragment!.configure({ faults: { done: 'normal' } });
});

test('an unpaid case whose chain went silent: settled as failed only after the message provably expired', async () => {
  h.sandbox.chain.faults.set({ dropExternals: { rate: 1 } });
  const created = await h.createPurchase(order({ seed: h.wallet('ton24-v4r2').seed }));
  await h.waitFor(created.id, ['submitted', 'confirming']);
  h.sandbox.chain.faults.set({ dropExternals: { rate: 1 }, http5xx: { rate: 1 } });
  const row = await h.waitFor(created.id);
  expect({ status: row.status, code: (row.error as { code: string }).code }).toEqual({
    status: 'reconciliation_required',
    code: 'OUTCOME_UNKNOWN',
  });

  // The chain still fails: the error is recorded, nothing settled.
  await collectEvidence(h.deps, reads);
  expect(await collectorEvidence(created.id)).toMatchObject({ error: expect.any(String) });
  h.sandbox.chain.faults.set({});
  // Before valid_until the message could still land.
  await collectEvidence(h.deps, reads);
  expect((await h.find(created.id)).status).toBe('reconciliation_required');
  expect(await collectorEvidence(created.id)).toMatchObject({ chain: { found: false } });

  await new Promise((resolve) => setTimeout(resolve, row.validUntil! * 1000 + 2_500 - Date.now()));
  expect((await collectEvidence(h.deps, reads)).settled).toBe(1);
  const settled = await h.find(created.id);
  expect({ status: settled.status, code: (settled.error as { code: string }).code }).toEqual({
    status: 'failed',
    code: 'NOT_EXECUTED',
  });
  const last = (await h.purchases.events(created.id)).at(-1)!;
  expect(last).toMatchObject({ toStatus: 'failed', actor: EVIDENCE_COLLECTOR });
  expect(last.reason).toMatch(/expired unexecuted/);
  expect(h.paymentsByRef(row.walletAddress!).get(row.fragmentRef!)).toBeUndefined();
});

test('a paid case buried under more than a page of newer wallet transactions is found, never settled failed', async () => {
  // Found by `npm run chaos`: on a busy shared wallet the paying transaction was no longer among
  // the newest 100, the look-up by its hash missed, and the case was settled `failed`
  // ("expired unexecuted … message absent") although it was paid and delivered.
  h.sandbox.fragment!.configure({ faults: { done: 'never' } });
  try {
    const wallet = h.wallet('ton24-v4r2');
    const created = await h.createPurchase(order({ seed: wallet.seed, username: '@dave' }));
    const row = await h.waitFor(created.id);
    expect(row.status).toBe('reconciliation_required');
    expect(row.transactionHash).toMatch(/^[0-9a-f]{64}$/);
    // 120 newer incoming transfers: the payment is past the first page of the wallet's history.
    const address = Address.parse(wallet.address);
    await Promise.all(Array.from({ length: 120 }, () => h.sandbox.chain.fund(address, { gram: 1n })));
    // valid_until and its margin pass, so only the chain look-up stands between the case and `failed`.
    while (Date.now() <= row.validUntil! * 1000 + 2_500) await new Promise((resolve) => setTimeout(resolve, 250));
    await collectEvidence(h.deps, reads);
    const after = await h.find(created.id);
    expect(after.status).toBe('reconciliation_required');
    expect(await collectorEvidence(created.id)).toMatchObject({
      chain: { paid: true, transaction_hash: row.transactionHash },
    });
  } finally {
    h.sandbox.fragment!.configure({ faults: { done: 'normal' } });
  }
});
