import type { NamedStatement } from './named-statement';
import { WORKED_NOW } from './visible-change';

/**
 * CheckoutRepository.acceptSignedBoc: the signed external and the checkout's move to `submitted`,
 * in one statement (purchases.batch_id references signed_externals, so neither is stored without
 * the other). Fenced on the status: the first BOC accepted wins, whoever brings it (the /submitted
 * route or the worker's chain watch). The version moves on and the lease is cleared, so a worker
 * still holding the row (its chain watch) is fenced out and the next job runs the `submitted` step.
 * $1 id, $2 batch id, $3 normalized hash, $4 seqno, $5 valid_until, $6 since_lt, $7 BOC,
 * $8 actor, $9 reason, $10 event data, $11 the status it is accepted from: `awaiting_signature`, or
 * `expired` only when its payment is proven on chain (a late /submitted, docs/security.md
 * attack 7).
 */
export const ACCEPT_CHECKOUT_BOC: NamedStatement = {
  name: 'checkout_accept_boc',
  text: `
  WITH updated AS (
    UPDATE purchases p SET status = 'submitted', error = NULL, completed_at = NULL, batch_id = $2::uuid, normalized_hash = $3::text, seqno = $4::int,
      valid_until = $5::int, evidence = coalesce(p.evidence, '{}'::jsonb) || jsonb_build_object('batch', jsonb_build_object('id', $2::text, 'index', 0, 'size', 1, 'since_lt', $6::text)),
      step_started_at = now(), next_run_at = now(), attempt = 0, lease_owner = NULL, lease_expires_at = NULL,
      version = p.version + 1, updated_at = now(), ${WORKED_NOW}
    WHERE p.id = $1::uuid AND p.mode = 'client_signed'
      AND p.status = $11::text AND $11::text IN ('awaiting_signature', 'expired')
    RETURNING p.*
  ),
  external AS (
    INSERT INTO signed_externals (batch_id, wallet_address, boc, normalized_hash, seqno, valid_until, message_count)
    SELECT $2::uuid, wallet_address, $7::text, $3::text, $4::int, $5::int, 1 FROM updated
  ),
  event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
    SELECT id, $11::text, 'submitted', version, $8::text, $9::text, $10::jsonb FROM updated
  )
  SELECT * FROM updated`,
};
