import { purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';

/**
 * PurchaseTransitions.parkedAwaitingDelivery. $1 limit. Paid purchases waiting in `confirming` for
 * Fragment's delivery that nobody holds: their ids, versions and the Fragment session of their
 * order (which names the account whose history answers them), oldest first. Read only: the
 * delivery watch claims only the rows a look showed delivered.
 */
export const PARKED_AWAITING_DELIVERY: NamedStatement = {
  name: 'purchases_parked_awaiting_delivery',
  text: `
  SELECT id, version, payment_request->>'fragmentSession' AS fragment_session FROM purchases
  WHERE status = 'confirming' AND transaction_hash IS NOT NULL AND ${purchaseLeaseIsFree()}
  ORDER BY created_at LIMIT $1`,
};
