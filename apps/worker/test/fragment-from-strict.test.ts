/**
 * FRAGMENT_FROM_MUST_MATCH=true (docs/fragment-protocol.md §17): a payment request whose
 * `transaction.from` is not the payer fails before anything is signed, as before the linked-wallet
 * change; when Fragment names the payer (the simulator's echo mode) the purchase completes.
 */
import { Address } from '@ton/core';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { FRAGMENT_FROM_MUST_MATCH: 'true' } });
});

afterAll(async () => {
  await h?.close();
});

const order = (payment_method: 'gram' | 'usdt'): PurchaseInput => ({
  product: 'stars',
  username: '@alice',
  amount: 50,
  payment_method,
  seed: h.wallet('base64-v5r1').seed,
});

const refused = async () =>
  (await h.deps.fragmentFrom.metrics.fragmentFromMismatches.get()).values
    .filter((v) => v.labels.outcome === 'refused')
    .reduce((sum, v) => sum + v.value, 0);

test.each(['gram', 'usdt'] as const)(
  'linked mode, %s: PAYMENT_REJECTED_BY_POLICY (payer) before anything is signed',
  async (method) => {
    expect(h.config.fragmentFromMustMatch).toBe(true);
    h.sandbox.fragment!.configure({ faults: { transactionFrom: 'linked' } });
    const wallet = Address.parse(h.wallet('base64-v5r1').rawAddress);
    const seqnoBefore = await h.chain.getSeqno(wallet);
    const refusedBefore = await refused();
    const created = await h.createPurchase(order(method));
    const row = await h.waitFor(created.id);
    expect(row.status).toBe('failed');
    const error = row.error as { code: string; details: Array<{ check: string }> };
    expect(error.code).toBe('PAYMENT_REJECTED_BY_POLICY');
    expect(error.details.map((d) => d.check)).toContain('payer');
    expect(row.normalizedHash).toBeNull();
    expect(await h.chain.getSeqno(wallet)).toBe(seqnoBefore);
    expect(await refused()).toBe(refusedBefore + 1);
  },
);

test.each(['gram', 'usdt'] as const)(
  'echo mode, %s: Fragment names the payer and the purchase completes',
  async (method) => {
    h.sandbox.fragment!.configure({ faults: { transactionFrom: 'echo' } });
    const created = await h.createPurchase(order(method));
    const row = await h.waitFor(created.id);
    expect({ status: row.status, error: row.error }).toEqual({ status: 'completed', error: null });
    expect((row.paymentRequest as { fragmentFrom: string }).fragmentFrom).toBe(h.wallet('base64-v5r1').rawAddress);
    expect(h.deliveredCount(row.fragmentRef)).toBe(1);
  },
);
