import { leaseExpiresIn } from './lease-expressions';
import type { NamedStatement } from './named-statement';
import { WORKED_NOW } from './visible-change';

/** PurchaseTransitions.heartbeat. $1 id, $2 version, $3 owner, $4 lease ms. Extends the lease; the version stays. */
export const HEARTBEAT_PURCHASE: NamedStatement = {
  name: 'purchase_heartbeat',
  text: `UPDATE purchases SET lease_expires_at = ${leaseExpiresIn('$4')}, ${WORKED_NOW} WHERE id = $1 AND version = $2 AND lease_owner = $3 RETURNING id`,
};
