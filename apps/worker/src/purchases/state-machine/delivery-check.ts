import { normalizedTextNamesOrder, normalizeStatusText, statusTextNamesOrder, type FragmentClient, type HistoryRow } from '@starsgate/fragment';
import type { PurchaseRow } from '@starsgate/db';
import { sharedCall } from './shared-call';
import type { StepDeps } from './step-deps';

type Product = 'stars' | 'premium';

/** Rows of the account's history may be stamped by a clock this far behind ours. */
export const CLOCK_SKEW_MS = 60_000;

export interface DeliveryObservation {
  delivered: boolean;
  /** Which signal said so, or what was seen, for the audit trail. */
  via?: 'history' | 'status';
  detail: string;
}

/** Our paid look-alikes of an order created since a time (one query each, or a group's shared read). */
export type LookalikeCounter = (row: PurchaseRow, since: Date) => Promise<number>;

/** One history read serves a whole batch: its dated rows are normalized once, not per member. */
const normalizedReads = new WeakMap<HistoryRow[], Array<{ at: number; text: string }>>();

function deliveredRows(history: HistoryRow[]): Array<{ at: number; text: string }> {
  let rows = normalizedReads.get(history);
  if (!rows) {
    rows = history.flatMap((entry) => (entry.deliveredAt !== undefined ? [{ at: entry.deliveredAt, text: normalizeStatusText(entry.text) }] : []));
    normalizedReads.set(history, rows);
  }
  return rows;
}

/**
 * Whether Fragment delivered this purchase's order (protocol §8.3), by two signals:
 * 1. The account's history. Its rows name recipient and quantity but not the Ref#, so identical
 *    orders are told apart only by count: the rows since this purchase was created must be at
 *    least as many as our own paid look-alikes since then (this one included).
 * 2. The session's status screen: `done`, and naming this order. It shows the session's latest
 *    order only, so it vouches only when there is no paid look-alike to confuse it with, and it
 *    is asked only when the history does not vouch.
 */
export async function observeDelivery(
  deps: StepDeps,
  row: PurchaseRow,
  client: FragmentClient,
  notBefore: number,
  countLookalikes: LookalikeCounter = (order, since) => deps.transitions.countPaidLookalikes(order, since),
): Promise<DeliveryObservation> {
  const product = row.product as Product;
  const order = { product, username: row.username, amount: row.amount };
  const reuse = { now: deps.now(), notBefore, maxAgeMs: Math.max(50, deps.config.pollIntervalMs / 2) };
  const history = await sharedCall<HistoryRow[] | Error>(client, `history:${product}`, reuse, () => client.deliveryHistory(product).catch((error: Error) => error));
  const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
  const inHistory = history instanceof Error ? 0 : deliveredRows(history).filter((entry) => entry.at >= since && normalizedTextNamesOrder(entry.text, order)).length;
  let needed: number | undefined;
  if (inHistory > 0) {
    needed = await countLookalikes(row, new Date(since));
    if (inHistory >= needed) return { delivered: true, via: 'history', detail: `history lists ${inHistory} matching deliveries for ${needed} paid orders like this` };
  }
  const historyDetail = history instanceof Error ? `history unavailable: ${history.message}` : inHistory === 0 ? 'no matching delivery yet' : `history lists ${inHistory} matching deliveries for ${needed} paid orders like this`;

  // The status screen is read through the session's flow: while orders are being created there it
  // would wait behind all of them, so it is asked only when the session is idle, or when half of
  // the step's time is gone.
  const late = deps.now() - row.stepStartedAt.getTime() > deps.config.maxAges.confirmingMs / 2;
  const status = await sharedCall(client, `status:${product}`, reuse, () =>
    (late ? client.pollOrderState(product) : client.pollOrderStateIfIdle(product)).then(
      (state) => (state ? { done: state.done, statusText: state.statusText } : { done: false, statusText: '' }),
      () => ({ done: false, statusText: '' }),
    ),
  );
  if (!(status.done && statusTextNamesOrder(status.statusText, order))) return { delivered: false, detail: historyDetail };
  needed ??= await countLookalikes(row, new Date(since));
  // The status screen shows one order: it can vouch only when there is no look-alike to confuse it with.
  if (needed <= 1) return { delivered: true, via: 'status', detail: status.statusText };
  return { delivered: false, detail: historyDetail };
}
