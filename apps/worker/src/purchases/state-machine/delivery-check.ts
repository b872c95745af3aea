import { statusTextNamesOrder, type FragmentClient, type HistoryRow } from '@starsgate/fragment';
import type { PurchaseRow } from '@starsgate/db';
import { sharedCall } from './shared-call';
import type { StepDeps } from './step-deps';

type Product = 'stars' | 'premium';

/** Rows of the account's history may be stamped by a clock this far behind ours. */
const CLOCK_SKEW_MS = 60_000;

export interface DeliveryObservation {
  delivered: boolean;
  /** Which signal said so, or what was seen, for the audit trail. */
  via?: 'history' | 'status';
  detail: string;
}

/**
 * Whether Fragment delivered this purchase's order (protocol §8.3), by two signals:
 * 1. The account's history. Its rows name recipient and quantity but not the Ref#, so identical
 *    orders are told apart only by count: the rows since this purchase was created must be at
 *    least as many as our own paid look-alikes since then (this one included).
 * 2. The session's status screen: `done`, and naming this order. It shows the session's latest
 *    order only, so it vouches only when there is no paid look-alike to confuse it with.
 */
export async function observeDelivery(deps: StepDeps, row: PurchaseRow, client: FragmentClient, notBefore: number): Promise<DeliveryObservation> {
  const product = row.product as Product;
  const order = { product, username: row.username, amount: row.amount };
  const reuse = { now: deps.now(), notBefore, maxAgeMs: Math.max(50, deps.config.pollIntervalMs / 2) };
  const [history, status] = await Promise.all([
    sharedCall<HistoryRow[] | Error>(client, `history:${product}`, reuse, () => client.deliveryHistory(product).catch((error: Error) => error)),
    sharedCall(client, `status:${product}`, reuse, () =>
      client.pollOrderState(product).then(
        (state) => ({ done: state.done, statusText: state.statusText }),
        () => ({ done: false, statusText: '' }),
      ),
    ),
  ]);

  const since = row.createdAt.getTime() - CLOCK_SKEW_MS;
  const inHistory =
    history instanceof Error ? 0 : history.filter((entry) => entry.deliveredAt !== undefined && entry.deliveredAt >= since && statusTextNamesOrder(entry.text, order)).length;
  const onStatusScreen = status.done && statusTextNamesOrder(status.statusText, order);
  if (inHistory === 0 && !onStatusScreen) {
    return { delivered: false, detail: history instanceof Error ? `history unavailable: ${history.message}` : 'no matching delivery yet' };
  }
  const needed = await deps.transitions.countPaidLookalikes(row, new Date(since));
  if (inHistory >= needed) return { delivered: true, via: 'history', detail: `history lists ${inHistory} matching deliveries for ${needed} paid orders like this` };
  // The status screen shows one order: it can vouch only when there is no look-alike to confuse it with.
  if (onStatusScreen && needed <= 1) return { delivered: true, via: 'status', detail: status.statusText };
  return { delivered: false, detail: `history lists ${inHistory} matching deliveries for ${needed} paid orders like this` };
}
