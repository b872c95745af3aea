/**
 * Delivery proof modes on the sandbox with real PostgreSQL/Redis, when Fragment's history page
 * changes its markup to a shape no parser knows:
 * - `strict` (default): no completion without Fragment's word; the purchase ends in
 *   reconciliation_required naming the upstream-format error, which is logged once per session,
 *   counted in the worker's metric and recorded for the admin stats;
 * - `chain`: the payment of exactly Fragment's request settled on chain and the confirm accepted
 *   completes it, with `chain_settled` named as the evidence in its timeline.
 */
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { CONFIRMING_MAX_AGE_MS: '4000' } });
});

afterAll(async () => {
  await h?.close();
});

afterEach(() => {
  h.sandbox.fragment!.configure({
    faults: { historyMarkup: 'table', done: 'normal', methods: { updateStarsBuyState: { errorRate: 0 } } },
  });
  Object.assign(h.deps.config, { deliveryProof: 'strict' });
});

async function completionEvent(id: string): Promise<{ reason: string; data: Record<string, unknown> }> {
  const { rows } = await h.database.pool.query<{ reason: string; data: Record<string, unknown> }>(
    `SELECT reason, data FROM purchase_events WHERE purchase_id = $1 AND to_status = 'completed'`,
    [id],
  );
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

/** Waits until the worker saw the purchase's payment on chain (Fragment saw it too, in the same block). */
async function paidOnChain(id: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; (await h.find(id)).transactionHash === null;) {
    if (Date.now() > deadline) throw new Error(`purchase ${id} not paid on chain`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const order = (username: string, amount: number) => ({
  product: 'stars' as const,
  amount,
  payment_method: 'gram' as const,
  username,
  seed: h.wallet('base64-v5r1').seed,
});

test('strict, the history as Fragment shows it: completed with history_listed evidence', async () => {
  // Once paid, the status screen cannot be read, so only the history can vouch (a look that read a
  // history from before the delivery and then the status screen would complete on state_done).
  h.sandbox.fragment!.configure({ faults: { done: 'slow' }, slowDoneDelayMs: 1_000 });
  const created = await h.createPurchase(order('@alice', 61));
  await paidOnChain(created.id);
  h.sandbox.fragment!.configure({ faults: { methods: { updateStarsBuyState: { errorRate: 1 } } } });
  const row = await h.waitFor(created.id);
  expect(row.status).toBe('completed');
  const event = await completionEvent(row.id);
  expect(event.data.evidence).toContain('history_listed');
  const { delivery } = row.evidence as { delivery: { proof: string[]; mode: string } };
  expect(delivery.mode).toBe('strict');
  expect(delivery.proof).toContain('history_listed');
});

test('strict, a history page whose markup changed: reconciliation_required with the format error reported', async () => {
  // Fragment never says done on the status screen either: only its history could vouch.
  h.sandbox.fragment!.configure({ faults: { historyMarkup: 'changed', done: 'never' } });
  const counted = async () =>
    (await h.deps.upstreamFormat.metrics.upstreamFormatErrors.get()).values.reduce((sum, v) => sum + v.value, 0);
  const before = await counted();
  const row = await h.waitFor((await h.createPurchase(order('@bob', 62))).id);
  expect(row.status).toBe('reconciliation_required');
  const error = row.error as { code: string; message: string; details: Array<Record<string, unknown>> };
  expect(error.code).toBe('DELIVERY_UNCONFIRMED');
  expect(error.message).toMatch(/unknown format/);
  expect(typeof error.details[0]!.upstream_format_error).toBe('string');
  expect(typeof (row.evidence as Record<string, unknown>).history_format_error).toBe('string');
  // Reported once for the session, however many looks found the page unreadable.
  expect((await counted()) - before).toBe(1);
  const { rows } = await h.database.pool.query(`SELECT source, occurrences FROM upstream_format_errors`);
  expect(rows).toEqual([{ source: 'fragment_history:stars', occurrences: 1 }]);
});

test('chain, the same changed markup: completed on chain_settled', async () => {
  Object.assign(h.deps.config, { deliveryProof: 'chain' });
  h.sandbox.fragment!.configure({ faults: { historyMarkup: 'changed' } });
  const row = await h.waitFor((await h.createPurchase(order('@carol', 63))).id);
  expect(row.status).toBe('completed');
  const event = await completionEvent(row.id);
  expect(event.reason).toMatch(/chain_settled/);
  expect(event.data.evidence).toContain('chain_settled');
  expect(event.data.evidence).not.toContain('history_listed');
  expect(row.evidence).toMatchObject({ chain: { settled: true }, confirm: { ok: true }, delivery: { mode: 'chain' } });
  expect((row.evidence as { delivery: { proof: string[] } }).delivery.proof).toContain('chain_settled');
});

test('strict, an identical earlier order delivered after this one was created: its history row does not vouch for this one', async () => {
  // A: paid, its delivery held back a few seconds; then made an order of three minutes ago.
  h.sandbox.fragment!.configure({ faults: { done: 'slow' }, slowDoneDelayMs: 2_500 });
  const earlier = await h.createPurchase(order('@dave', 64));
  await paidOnChain(earlier.id);
  await new Promise((resolve) => setTimeout(resolve, 500)); // A's order is processing: its delivery is timed
  await h.database.pool.query(`UPDATE purchases SET created_at = created_at - interval '3 minutes' WHERE id = $1`, [
    earlier.id,
  ]);
  // B: the same recipient and quantity, paid, never delivered by Fragment.
  h.sandbox.fragment!.configure({ faults: { done: 'never' } });
  const later = await h.waitFor((await h.createPurchase(order('@dave', 64))).id);
  const earlierRef = (await h.find(earlier.id)).fragmentRef;
  const delivered = h.sandbox.fragment!.stats().deliveredOrders;
  // Fragment delivered A (after B was created, so its row lies in B's window), never B.
  expect(delivered.filter((d) => d.username === 'dave').map((d) => d.ref)).toEqual([earlierRef]);
  expect(later.transactionHash).not.toBeNull();
  expect(later.status).toBe('reconciliation_required');
  expect((later.error as { code: string }).code).toBe('DELIVERY_UNCONFIRMED');
});
