import type { Pool } from 'pg';
import type { NewPurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';

export interface PurchaseEventInput {
  fromStatus: string | null;
  toStatus: string;
  actor: string;
  reason?: string;
  data?: unknown;
  requestId?: string;
}

export interface PurchaseIntake {
  row: NewPurchaseRow & { id: string };
  buildSecret: (purchaseId: string) => SealedSecret;
  event: PurchaseEventInput;
}

/** The inserted rows, keyed by idempotency key; a key missing here already had a purchase. */
export type InsertedByKey = Map<string, Record<string, unknown>>;

/**
 * Many intakes in ONE statement: the purchases, their first events and their sealed secrets
 * (data-modifying CTEs are atomic), so a batch costs one round trip and one commit. Rows go in
 * idempotency-key order, so two concurrent batches take their key locks in the same order and
 * cannot deadlock each other.
 */
const BATCH_INTAKE_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
                         $9::text[], $10::text[], $11::int[], $12::text[], $13::text[], $14::text[], $15::text[],
                         $16::text[], $17::bytea[], $18::bytea[], $19::text[], $20::text[], $21::text[], $22::text[], $23::jsonb[], $24::text[])
      AS t(id, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
           payment_method, seed_format, account_index, requested_wallet_address, wallet_address, wallet_version, request_id,
           key_id, wrapped_key, ciphertext, from_status, to_status, actor, reason, data, event_request_id)
  ), purchase AS (
    INSERT INTO purchases (id, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                           payment_method, seed_format, account_index, requested_wallet_address, wallet_address, wallet_version, request_id)
    SELECT id, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
           payment_method, seed_format, account_index, requested_wallet_address, wallet_address, wallet_version, request_id
    FROM input ORDER BY idempotency_key
    ON CONFLICT (mode, idempotency_key) DO NOTHING
    RETURNING *
  ), secret AS (
    INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext)
    SELECT purchase.id, input.key_id, input.wrapped_key, input.ciphertext FROM purchase JOIN input ON input.id = purchase.id
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data, request_id)
    SELECT purchase.id, input.from_status, input.to_status, purchase.version, input.actor, input.reason, input.data, input.event_request_id
    FROM purchase JOIN input ON input.id = purchase.id
  )
  SELECT * FROM purchase`;

/** The 24 parameters of one intake, in the order both intake statements take them. */
export function intakeParameters(
  { row, event }: Pick<PurchaseIntake, 'row' | 'event'>,
  sealed: SealedSecret,
): unknown[] {
  return [
    row.id,
    row.idempotencyKey,
    row.requestFingerprint,
    row.fingerprintKeyId,
    row.status,
    row.product,
    row.username,
    row.amount,
    row.paymentMethod,
    row.seedFormat,
    row.accountIndex ?? null,
    row.requestedWalletAddress ?? null,
    row.walletAddress ?? null,
    row.walletVersion ?? null,
    row.requestId ?? null,
    sealed.keyId,
    sealed.wrappedKey,
    sealed.ciphertext,
    event.fromStatus,
    event.toStatus,
    event.actor,
    event.reason ?? null,
    event.data === undefined ? null : JSON.stringify(event.data),
    event.requestId ?? null,
  ];
}

/** `intakes` must have distinct idempotency keys. */
export async function insertIntakeBatch(pool: Pool, intakes: readonly PurchaseIntake[]): Promise<InsertedByKey> {
  const sorted = [...intakes].sort((a, b) =>
    a.row.idempotencyKey < b.row.idempotencyKey ? -1 : a.row.idempotencyKey > b.row.idempotencyKey ? 1 : 0,
  );
  const columns: unknown[][] = Array.from({ length: 24 }, () => []);
  for (const { row, buildSecret, event } of sorted) {
    const sealed = buildSecret(row.id);
    const values = intakeParameters({ row, event }, sealed);
    values.forEach((value, index) => columns[index]?.push(value));
  }
  const result = await pool.query({ name: 'purchase_intake_batch', text: BATCH_INTAKE_SQL, values: columns });
  return new Map(result.rows.map((raw: Record<string, unknown>) => [raw.idempotency_key as string, raw]));
}
