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
  h.sandbox.fragment!.configure({ faults: { historyMarkup: 'table', done: 'normal' } });
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

const order = (username: string, amount: number) => ({
  product: 'stars' as const,
  amount,
  payment_method: 'gram' as const,
  username,
  seed: h.wallet('base64-v5r1').seed,
});

test('strict, the history as Fragment shows it: completed with history_listed evidence', async () => {
  const row = await h.waitFor((await h.createPurchase(order('@alice', 61))).id);
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
