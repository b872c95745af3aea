import { leaseExpiresIn, purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';
import { WORKED_NOW } from './visible-change';

/**
 * PurchaseTransitions.claimBatchSiblings. $1 batch id, $2 the caller's own id, $3 paid (true:
 * the payment is recorded), $4 owner, $5 lease ms. The GRAM members of a batch that wait in
 * `confirming` and that nobody holds.
 */
export const CLAIM_BATCH_SIBLINGS: NamedStatement = {
  name: 'purchase_claim_batch_siblings',
  text: `
  UPDATE purchases SET lease_owner = $4, lease_expires_at = ${leaseExpiresIn('$5')}, version = version + 1, ${WORKED_NOW}
  WHERE batch_id = $1 AND id <> $2 AND status = 'confirming' AND payment_method = 'gram'
    AND (transaction_hash IS NOT NULL) = $3::boolean AND ${purchaseLeaseIsFree()}
  RETURNING *`,
};
