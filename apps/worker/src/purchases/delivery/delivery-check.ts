import { rowQuantities, type Product, type Quantities } from '@starsgate/domain';
import {
  AccountHistory,
  fragmentPack,
  historyKey,
  orderHistoryKeys,
  statusTextNamesOrder,
  type FragmentClient,
  type HistoryRead,
  type HistoryRow,
} from '@starsgate/fragment';
import type { LookalikeWindow, PurchaseRow } from '@starsgate/db';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';

/** Rows of the account's history may be stamped by a clock this far behind ours. */
export const CLOCK_SKEW_MS = 60_000;

/** Pages one look at an account's history may read: new rows first, then older ones an order needs. */
const HISTORY_PAGES_PER_LOOK = 50;

const accountHistories = new WeakMap<object, Map<string, AccountHistory>>();

/** The account's history kept by this process (see AccountHistory): a look reads only what is new. */
function accountHistoryOf(deps: StepDeps, key: string): AccountHistory {
  let byKey = accountHistories.get(deps.fragment);
  if (!byKey) {
    byKey = new Map();
    accountHistories.set(deps.fragment, byKey);
  }
  let history = byKey.get(key);
  if (!history) {
    history = new AccountHistory({
      maxPagesPerLook: HISTORY_PAGES_PER_LOOK,
      // A waiting order is at most the confirming step's age; its rows may be stamped CLOCK_SKEW_MS early.
      keepMs: deps.config.maxAges.confirmingMs + 2 * CLOCK_SKEW_MS,
      now: deps.now,
    });
    byKey.set(key, history);
  }
  return history;
}

/** What Fragment showed: the order in the account's history, or the session's status screen done. */
export type FragmentProof = 'history_listed' | 'state_done';

export interface DeliveryObservation {
  delivered: boolean;
  /** Which evidence said so. */
  via?: FragmentProof;
  /** What was seen, for the audit trail. */
  detail: string;
  /** The history page had an unknown shape (reported once per session): never "not delivered". */
  historyFormatError?: string;
}

/**
 * Our paid look-alikes of an order whose delivery may fall since a time, made on the Fragment
 * account whose history is read (one query each, or a group's shared read).
 */
export type LookalikeCounter = (row: PurchaseRow, since: Date, account: string) => Promise<LookalikeWindow>;

interface HistoryOrder {
  product: Product;
  username: string;
  amount: number;
  quantities?: Quantities;
  /** The order's Ref#: a row showing it names this order alone. */
  ref?: string | null;
}

/**
 * One history read serves a whole batch, and the history holds many rows: its rows are filed once
 * under their recipient#quantity key (historyKey), so each order is tested only against rows that
 * name its recipient and its quantity.
 */
const indexedReads = new WeakMap<HistoryRow[], Map<string, HistoryRow[]>>();

function rowsFiledFor(history: HistoryRow[], order: HistoryOrder): HistoryRow[] {
  let index = indexedReads.get(history);
  if (!index) {
    index = new Map();
    for (const row of history) {
      const key = historyKey(row);
      if (key === undefined) continue;
      const filed = index.get(key);
      if (filed) filed.push(row);
      else index.set(key, [row]);
    }
    indexedReads.set(history, index);
  }
  return orderHistoryKeys(order).flatMap((key) => index.get(key) ?? []);
}

/**
 * How many rows of one history read, delivered at or after `since`, name this order: its recipient
 * and quantity, and its Ref# where the row shows one (a row showing another Ref# is another order).
 */
export function deliveriesNaming(history: HistoryRow[], order: HistoryOrder, since: number): number {
  // A product whose rows vouch only by Ref# (refListed) counts none here.
  if (fragmentPack(order.product).historyRows.vouchesOnlyByRef) return 0;
  return rowsFiledFor(history, order).filter(
    (row) => row.deliveredAt >= since && (row.ref === undefined || !order.ref || row.ref === order.ref),
  ).length;
}

/** Whether a row shows this order's own Ref#: proof on its own, whatever our look-alikes. */
export function refListed(history: HistoryRow[], order: HistoryOrder, since: number): boolean {
  return !!order.ref && rowsFiledFor(history, order).some((row) => row.ref === order.ref && row.deliveredAt >= since);
}

/**
 * Whether Fragment delivered this purchase's order (docs/fragment-protocol.md §8.3), by two signals:
 * 1. The account's history (read back to the order's time). A row showing the order's Ref# vouches
 *    alone; rows naming recipient and quantity only tell identical orders apart by count: those
 *    since this purchase was created must be at least as many as our own paid look-alikes whose
 *    delivery may fall since then (this one included, and an earlier one not yet completed then).
 *    A page of unknown shape is reported (upstreamFormat), and its readable rows still count.
 * 2. The session's status screen: `done`, and naming this order. It shows the session's latest
 *    order only, so it vouches only when there is no paid look-alike to confuse it with, and it
 *    is asked only when the history does not vouch.
 */
export async function observeDelivery(
  deps: StepDeps,
  row: PurchaseRow,
  client: FragmentClient,
  notBefore: number,
  countLookalikes: LookalikeCounter = (order, since, account) =>
    deps.paidLookalikes.windowFor(order, since, CLOCK_SKEW_MS, account),
): Promise<DeliveryObservation> {
  const product = row.product;
  const order: HistoryOrder = {
    product,
    username: row.username,
    amount: row.amount,
    quantities: rowQuantities(row),
    ref: row.fragmentRef,
  };
  const reuse = { now: deps.now(), notBefore, maxAgeMs: Math.max(50, deps.config.pollIntervalMs / 2) };
  const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
  // The history belongs to the account: one read serves every session logged in to it. A read made
  // for another order may stop short of this one's time: then it counts fewer rows, never more.
  // A read back to an earlier time (a look-alike window) is shared by the orders of that window.
  const account = client.accountId();
  const key = `history:${product}:${account}`;
  let historyFormatError: string | undefined;
  const readBackTo = async (back: number): Promise<HistoryRead | Error> => {
    const read = await sharedCall<HistoryRead | Error>(
      deps.fragment,
      back === since ? key : `${key}@${back}`,
      reuse,
      () =>
        accountHistoryOf(deps, key)
          .look((options) => client.deliveryHistory(product, options), back)
          .catch((error: Error) => error),
    );
    if (!(read instanceof Error) && read.shape === 'unrecognized') {
      historyFormatError = read.problem ?? 'unknown shape';
      await deps.upstreamFormat.report(`fragment_history:${product}`, client.sessionId(), historyFormatError);
    }
    return read;
  };
  let history = await readBackTo(since);
  const withFormat = (observation: DeliveryObservation): DeliveryObservation =>
    historyFormatError !== undefined ? { ...observation, historyFormatError } : observation;
  let rows = history instanceof Error ? [] : history.rows;
  if (refListed(rows, order, since))
    return withFormat({ delivered: true, via: 'history_listed', detail: `history lists Ref#${order.ref}` });
  // This order's own row is stamped at or after `since`: with none there, it is not delivered, and
  // our look-alikes (a query) are counted only once a row or the status screen may be this order's.
  let inHistory = deliveriesNaming(rows, order, since);
  let lookalikes: LookalikeWindow | undefined;
  // Only this account's orders can have rows in this account's history (docs/fragment-protocol.md §17.5).
  const countOnce = async () => (lookalikes ??= await countLookalikes(row, new Date(since), account));
  if (inHistory > 0) {
    // Our paid look-alikes, and how far back their rows may lie (an earlier one delivered late).
    const window = await countOnce();
    const windowStart = window.since.getTime();
    if (windowStart < since) {
      history = await readBackTo(windowStart);
      rows = history instanceof Error ? [] : history.rows;
      inHistory = deliveriesNaming(rows, order, windowStart);
    }
    if (inHistory >= window.count)
      return withFormat({
        delivered: true,
        via: 'history_listed',
        detail: `history lists ${inHistory} matching deliveries for ${window.count} paid orders like this`,
      });
  }
  const historyDetail =
    history instanceof Error
      ? `history unavailable: ${history.message}`
      : historyFormatError !== undefined
        ? `history page of an unknown format: ${historyFormatError}`
        : inHistory === 0
          ? 'no matching delivery yet'
          : `history lists ${inHistory} matching deliveries for ${lookalikes?.count} paid orders like this`;

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
    return withFormat({ delivered: false, detail: historyDetail });
  // The status screen shows one order: it can vouch only when there is no look-alike to confuse it with.
  if ((await countOnce()).count <= 1)
    return withFormat({ delivered: true, via: 'state_done', detail: status.statusText });
  return withFormat({ delivered: false, detail: historyDetail });
}
