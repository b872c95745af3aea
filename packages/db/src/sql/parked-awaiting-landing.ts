import { purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';

/**
 * PurchaseTransitions.parkedAwaitingLanding. $1 limit. Purchases in `confirming` whose broadcast
 * external the chain did not show yet, parked for it (`evidence.landing_wait`, written by the park),
 * that nobody holds: their ids, versions, paying wallets and `valid_until`, oldest first. Read
 * only: the chain watch claims only the rows whose transaction a look found.
 */
export const PARKED_AWAITING_LANDING: NamedStatement = {
  name: 'purchases_parked_awaiting_landing',
  text: `
  SELECT id, version, wallet_address, valid_until FROM purchases
  WHERE status = 'confirming' AND transaction_hash IS NULL AND wallet_address IS NOT NULL
    AND normalized_hash IS NOT NULL AND evidence ? 'landing_wait' AND NOT evidence ? 'chain'
    AND ${purchaseLeaseIsFree()}
  ORDER BY created_at LIMIT $1`,
};
