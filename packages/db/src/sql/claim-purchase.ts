import { leaseExpiresIn, purchaseLeaseIsFree } from './lease-expressions';
import type { NamedStatement } from './named-statement';
import { TERMINAL_STATUS_LIST } from './domain-lists';
import { WORKED_NOW } from './visible-change';
import { SEALED_SECRET_COLUMNS } from './sealed-secret-columns';

/**
 * PurchaseTransitions.claim. $1 id, $2 owner, $3 lease ms. The hottest statement of the worker.
 * A queued purchase is moved to `preparing` by its claim (with its audit event), so starting a
 * purchase costs one round trip; a claim that fails answers with the row as it found it (locked,
 * so as of the latest commit), so its job can tell early from stale without asking again.
 */
export const CLAIM_PURCHASE: NamedStatement = {
  name: 'purchase_claim',
  text: `
  WITH before AS (
    SELECT * FROM purchases WHERE id = $1 FOR UPDATE
  ),
  claimed AS (
    UPDATE purchases p SET lease_owner = $2, lease_expires_at = ${leaseExpiresIn('$3')}, version = p.version + 1, ${WORKED_NOW},
      updated_at = CASE WHEN before.status = 'queued' THEN now() ELSE p.updated_at END,
      status = CASE WHEN before.status = 'queued' THEN 'preparing' ELSE p.status END,
      step_started_at = CASE WHEN before.status = 'queued' THEN now() ELSE p.step_started_at END
    FROM before
    WHERE p.id = before.id AND p.next_run_at <= now() AND p.status NOT IN ${TERMINAL_STATUS_LIST}
      AND ${purchaseLeaseIsFree('p')}
    RETURNING p.*, before.status AS from_status
  ),
  started AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason)
    SELECT id, from_status, status, version, lease_owner, 'preparing started' FROM claimed WHERE from_status = 'queued'
  )
  SELECT claimed.*, true AS claimed_now, ${SEALED_SECRET_COLUMNS} FROM claimed
  LEFT JOIN wallet_secrets s ON s.purchase_id = claimed.id AND s.destroyed_at IS NULL AND claimed.status = 'preparing'
  UNION ALL
  SELECT before.*, before.status, false, NULL, NULL, NULL FROM before WHERE NOT EXISTS (SELECT 1 FROM claimed)`,
};
