import type { NamedStatement } from './named-statement';
import { WORKED_NOW } from './visible-change';

/**
 * PurchaseTransitions.persistSignedBatch. The signed external and its members, in one statement:
 * the wallet lease is extended (only if still ours), then every member moved to `sending` (only
 * if the lease was), then the external stored only if every member was. purchases.batch_id
 * references signed_externals, so a member written without its external fails the whole
 * statement: all or nothing.
 *
 * $1–$6 the members (ids, versions, owners, from-statuses, evidence, event data), $7 the lease's
 * new expiry, $8–$10 the wallet lease (name, owner, fence), $11 batch id, $12 normalized hash,
 * $13 seqno, $14 valid until, $15 step start, $16 wallet, $17 BOC, $18 message count, $19 reason.
 */
export const PERSIST_SIGNED_BATCH: NamedStatement = {
  name: 'persist_signed_batch',
  text: `
  WITH member AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::text[], $4::text[], $5::jsonb[], $6::jsonb[]) AS m(id, version, owner, from_status, evidence, event_data)
  ),
  extended AS (
    UPDATE leases SET expires_at = $7::timestamptz, updated_at = now()
    WHERE name = $8::text AND owner = $9::text AND fence = $10::bigint AND expires_at > now()
    RETURNING name
  ),
  updated AS (
    UPDATE purchases p SET
      status = 'sending', batch_id = $11::uuid, normalized_hash = $12::text, seqno = $13::int, valid_until = $14::int, step_started_at = $15::timestamptz,
      evidence = member.evidence, version = p.version + 1, updated_at = now(), ${WORKED_NOW}
    FROM member
    WHERE p.id = member.id AND p.version = member.version AND p.lease_owner = member.owner AND EXISTS (SELECT 1 FROM extended)
    RETURNING p.*, member.from_status AS event_from_status, member.event_data AS event_data
  ),
  external AS (
    INSERT INTO signed_externals (batch_id, wallet_address, boc, normalized_hash, seqno, valid_until, message_count)
    SELECT $11::uuid, $16::text, $17::text, $12::text, $13::int, $14::int, $18::int WHERE (SELECT count(*) FROM updated) = $18::int
  ),
  event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
    SELECT id, event_from_status, 'sending', version, lease_owner, $19::text, event_data FROM updated
  )
  SELECT * FROM updated`,
};
