import { leaseExpiresIn, purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';
import { WORKED_NOW } from './visible-change';

/**
 * PurchaseTransitions.claimParked. $1 ids, $2 the versions a shared look read, $3 status, $4
 * owner, $5 lease ms. A parked row is due only at its deadline (`next_run_at`), so unlike the
 * job's claim this one ignores the schedule: it is fenced on the version read instead, so a row
 * that moved since the look (its deadline job, an operator) is left alone.
 */
export const CLAIM_PARKED: NamedStatement = {
  name: 'purchase_claim_parked',
  text: `
  UPDATE purchases p SET lease_owner = $4, lease_expires_at = ${leaseExpiresIn('$5')}, version = p.version + 1, ${WORKED_NOW}
  FROM unnest($1::uuid[], $2::int[]) AS f(id, version)
  WHERE p.id = f.id AND p.version = f.version AND p.status = $3 AND ${purchaseLeaseIsFree('p')}
  RETURNING p.*`,
};
