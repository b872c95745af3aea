import { purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';

/**
 * PurchaseTransitions.parkedAwaitingSignature. $1 limit. Checkouts waiting in `awaiting_signature`
 * for their buyer's payment that nobody holds: their ids, versions and payer wallets (raw), oldest
 * first. Read only: the checkout watch moves only those whose payment it finds on chain.
 */
export const PARKED_AWAITING_SIGNATURE: NamedStatement = {
  name: 'purchases_parked_awaiting_signature',
  text: `
  SELECT id, version, checkout_transaction->>'from' AS payer FROM purchases
  WHERE status = 'awaiting_signature' AND mode = 'client_signed' AND ${purchaseLeaseIsFree()}
  ORDER BY created_at LIMIT $1`,
};
