import type { NamedStatement } from './named-statement';
import { readyToSendOf } from './ready-to-send';
import { WORKED_NOW } from './visible-change';

/**
 * PurchaseTransitions.wakeNextToSend. $1 wallet. Makes the oldest unheld purchase of the wallet
 * that waits to be sent due now, with a new version (so its parked job goes stale).
 */
export const WAKE_NEXT_TO_SEND: NamedStatement = {
  name: 'purchase_wake_next_to_send',
  text: `
  UPDATE purchases SET next_run_at = now(), version = version + 1, ${WORKED_NOW}
  WHERE id = (
    SELECT id FROM purchases
    WHERE ${readyToSendOf('$1')}
    ORDER BY created_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED
  )
  RETURNING id, version`,
};
