import { purchases, type PurchaseRow } from '../schema';
import type { NamedStatement } from './named-statement';

/** The purchase columns an intake writes, in the order of its first parameters (`intakeParameters`). */
const PURCHASE_COLUMNS = [
  ['id', 'uuid'],
  ['idempotency_key', 'text'],
  ['idempotency_scope', 'text'],
  ['request_fingerprint', 'text'],
  ['fingerprint_key_id', 'text'],
  ['status', 'text'],
  ['product', 'text'],
  ['username', 'text'],
  ['amount', 'int'],
  ['order_line', 'jsonb'],
  ['payment_method', 'text'],
  ['seed_format', 'text'],
  ['account_index', 'int'],
  ['requested_wallet_address', 'text'],
  ['wallet_address', 'text'],
  ['wallet_version', 'text'],
  ['payer_public_key', 'text'],
  ['request_id', 'text'],
] as const;

/** Then the sealed secret and the first event. */
const SECRET_AND_EVENT_COLUMNS = [
  ['key_id', 'text'],
  ['wrapped_key', 'bytea'],
  ['ciphertext', 'bytea'],
  ['from_status', 'text'],
  ['to_status', 'text'],
  ['actor', 'text'],
  ['reason', 'text'],
  ['data', 'jsonb'],
  ['event_request_id', 'text'],
] as const;

/** How many parameters one intake takes. */
export const INTAKE_PARAMETER_COUNT = PURCHASE_COLUMNS.length + SECRET_AND_EVENT_COLUMNS.length;

const purchaseColumnList = PURCHASE_COLUMNS.map(([name]) => name).join(', ');
const placeholder = (index: number) => `$${index + 1}`;
/** The placeholder of the secret's and event's `index`-th parameter. */
const secretParameter = (index: number) => placeholder(PURCHASE_COLUMNS.length + index);

/**
 * PurchaseRepository.insertOrGetByKey: claims the idempotency key (within its payer's scope) and
 * stores the purchase, its sealed secret and its first event in ONE statement (data-modifying
 * CTEs are atomic).
 */
export const INSERT_PURCHASE_INTAKE: NamedStatement = {
  name: 'purchase_intake',
  text: `
  WITH purchase AS (
    INSERT INTO purchases (${purchaseColumnList})
    VALUES (${PURCHASE_COLUMNS.map((_, index) => placeholder(index)).join(', ')})
    ON CONFLICT (mode, idempotency_scope, idempotency_key) DO NOTHING
    RETURNING *
  ), secret AS (
    INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext)
    SELECT id, ${secretParameter(0)}, ${secretParameter(1)}, ${secretParameter(2)} FROM purchase
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data, request_id)
    SELECT id, ${secretParameter(3)}, ${secretParameter(4)}, version, ${secretParameter(5)}, ${secretParameter(6)}, ${secretParameter(7)}::jsonb, ${secretParameter(8)} FROM purchase
  )
  SELECT * FROM purchase`,
};

const inputColumns = [...PURCHASE_COLUMNS, ...SECRET_AND_EVENT_COLUMNS];

/**
 * What a batched intake reads back of each purchase it stored: what the gateway answers with,
 * enqueues, and compares a repeat with. Not `RETURNING *`: decoding ~30 columns per row was a
 * measurable share of the gateway's CPU per purchase.
 */
export const INTAKE_RESULT_COLUMNS = {
  id: purchases.id,
  idempotencyKey: purchases.idempotencyKey,
  idempotencyScope: purchases.idempotencyScope,
  version: purchases.version,
  status: purchases.status,
  fingerprintKeyId: purchases.fingerprintKeyId,
  requestFingerprint: purchases.requestFingerprint,
};
export type IntakeRow = Pick<PurchaseRow, keyof typeof INTAKE_RESULT_COLUMNS>;
const intakeResultList = Object.values(INTAKE_RESULT_COLUMNS)
  .map((column) => column.name)
  .join(', ');

/**
 * insertIntakeBatch: many intakes in ONE statement, each parameter an array with one entry per
 * intake, so a batch costs one round trip and one commit. Rows go in (key, payer scope) order, so
 * two concurrent batches take their key locks in the same order and cannot deadlock each other.
 */
export const INSERT_PURCHASE_INTAKE_BATCH: NamedStatement = {
  name: 'purchase_intake_batch',
  text: `
  WITH input AS (
    SELECT * FROM unnest(${inputColumns.map(([, type], index) => `${placeholder(index)}::${type}[]`).join(', ')})
      AS t(${inputColumns.map(([name]) => name).join(', ')})
  ), purchase AS (
    INSERT INTO purchases (${purchaseColumnList})
    SELECT ${purchaseColumnList}
    FROM input ORDER BY idempotency_key, idempotency_scope
    ON CONFLICT (mode, idempotency_scope, idempotency_key) DO NOTHING
    RETURNING ${intakeResultList}
  ), secret AS (
    INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext)
    SELECT purchase.id, input.key_id, input.wrapped_key, input.ciphertext FROM purchase JOIN input ON input.id = purchase.id
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data, request_id)
    SELECT purchase.id, input.from_status, input.to_status, purchase.version, input.actor, input.reason, input.data, input.event_request_id
    FROM purchase JOIN input ON input.id = purchase.id
  )
  SELECT ${intakeResultList} FROM purchase`,
};
