import { leaseExpiresIn } from './lease-expressions';
import type { NamedStatement } from './named-statement';
import { readyToSendOf } from './ready-to-send';
import { SEALED_SECRET_COLUMNS } from './sealed-secret-columns';
import { WORKED_NOW } from './visible-change';

/**
 * PurchaseTransitions.claimReadyToSend. $1 wallet, $2 the sender's own id, $3 limit, $4 owner,
 * $5 lease ms. Claims the oldest purchases of a wallet that wait to be sent and that nobody
 * holds, with their sealed secrets: the extra members of a sender's batch, in one statement.
 */
export const CLAIM_READY_TO_SEND: NamedStatement = {
  name: 'purchase_claim_ready_to_send',
  text: `
  WITH ready AS (
    SELECT id FROM purchases
    WHERE ${readyToSendOf('$1')} AND id <> $2
    ORDER BY created_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED
  ),
  claimed AS (
    UPDATE purchases p SET lease_owner = $4, lease_expires_at = ${leaseExpiresIn('$5')}, version = p.version + 1, ${WORKED_NOW}
    FROM ready WHERE p.id = ready.id
    RETURNING p.*
  )
  SELECT claimed.*, ${SEALED_SECRET_COLUMNS} FROM claimed
  LEFT JOIN wallet_secrets s ON s.purchase_id = claimed.id AND s.destroyed_at IS NULL
  ORDER BY claimed.created_at`,
};
