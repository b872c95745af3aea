import {
  normalizedTextNamesOrder,
  normalizeStatusText,
  orderKeys,
  orderKeysNamedIn,
  statusTextNamesOrder,
  type FragmentClient,
  type HistoryRow,
} from '@starsgate/fragment';
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

interface DeliveredRow {
  at: number;
  /** normalizeStatusText of the row. */
  text: string;
}

/**
 * One history read serves a whole batch, and the history holds many rows: its dated rows are
 * normalized once and filed under every key they name (orderKeysNamedIn), so each order is
 * tested only against rows that name its recipient and its quantity.
 */
const indexedReads = new WeakMap<HistoryRow[], Map<string, DeliveredRow[]>>();

/** How many rows of one history read, delivered at or after `since`, name this order. */
export function deliveriesNaming(
  history: HistoryRow[],
  order: { product: Product; username: string; amount: number },
  since: number,
): number {
  return rowsNaming(history, order).filter((row) => row.at >= since).length;
}

function rowsNaming(
  history: HistoryRow[],
  order: { product: Product; username: string; amount: number },
): DeliveredRow[] {
  let index = indexedReads.get(history);
  if (!index) {
    index = new Map();
    for (const entry of history) {
      if (entry.deliveredAt === undefined) continue;
      const row = { at: entry.deliveredAt, text: normalizeStatusText(entry.text) };
      for (const key of orderKeysNamedIn(row.text)) {
        const filed = index.get(key);
        if (filed) filed.push(row);
        else index.set(key, [row]);
      }
    }
    indexedReads.set(history, index);
  }
  const candidates = new Set(orderKeys(order).flatMap((key) => index.get(key) ?? []));
  return [...candidates].filter((row) => normalizedTextNamesOrder(row.text, order));
}

/**
 * Whether Fragment delivered this purchase's order (docs/fragment-protocol.md §8.3), by two signals:
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
  // The history belongs to the account: one read serves every session logged in to it.
  const history = await sharedCall<HistoryRow[] | Error>(
    deps.fragment,
    `history:${product}:${client.accountId()}`,
    reuse,
    () => client.deliveryHistory(product).catch((error: Error) => error),
  );
  const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
  const inHistory = history instanceof Error ? 0 : deliveriesNaming(history, order, since);
  let needed: number | undefined;
  if (inHistory > 0) {
    needed = await countLookalikes(row, new Date(since));
    if (inHistory >= needed)
      return {
        delivered: true,
        via: 'history',
        detail: `history lists ${inHistory} matching deliveries for ${needed} paid orders like this`,
      };
  }
  const historyDetail =
    history instanceof Error
      ? `history unavailable: ${history.message}`
      : inHistory === 0
        ? 'no matching delivery yet'
        : `history lists ${inHistory} matching deliveries for ${needed} paid orders like this`;

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
  if (!(status.done && statusTextNamesOrder(status.statusText, order)))
    return { delivered: false, detail: historyDetail };
  needed ??= await countLookalikes(row, new Date(since));
  // The status screen shows one order: it can vouch only when there is no look-alike to confuse it with.
  if (needed <= 1) return { delivered: true, via: 'status', detail: status.statusText };
  return { delivered: false, detail: historyDetail };
}
