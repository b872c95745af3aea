import type { Pool } from 'pg';
import type { NewPurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import { INSERT_PURCHASE_INTAKE_BATCH, INTAKE_PARAMETER_COUNT } from '../sql/purchase-intake';

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

/** The inserted rows, keyed by `scopedKey`; a scoped key missing here already had a purchase. */
export type InsertedByKey = Map<string, Record<string, unknown>>;

/** One map key for an idempotency key within its payer's scope (docs/security.md, attack 5). */
export function scopedKey(scope: string, key: string): string {
  return JSON.stringify([scope, key]);
}

/** The parameters of one intake (INTAKE_PARAMETER_COUNT), in the order both intake statements take them. */
export function intakeParameters(
  { row, event }: Pick<PurchaseIntake, 'row' | 'event'>,
  sealed: SealedSecret,
): unknown[] {
  return [
    row.id,
    row.idempotencyKey,
    row.idempotencyScope,
    row.requestFingerprint,
    row.fingerprintKeyId,
    row.status,
    row.product,
    row.username,
    row.amount,
    JSON.stringify(row.orderLine),
    row.paymentMethod,
    row.seedFormat,
    row.accountIndex ?? null,
    row.requestedWalletAddress ?? null,
    row.walletAddress ?? null,
    row.walletVersion ?? null,
    row.payerPublicKey ?? null,
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

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Many intakes in one statement and one commit (INSERT_PURCHASE_INTAKE_BATCH); `intakes` must have distinct scoped keys. */
export async function insertIntakeBatch(pool: Pool, intakes: readonly PurchaseIntake[]): Promise<InsertedByKey> {
  const sorted = [...intakes].sort(
    (a, b) =>
      compare(a.row.idempotencyKey, b.row.idempotencyKey) || compare(a.row.idempotencyScope, b.row.idempotencyScope),
  );
  const columns: unknown[][] = Array.from({ length: INTAKE_PARAMETER_COUNT }, () => []);
  for (const { row, buildSecret, event } of sorted) {
    const sealed = buildSecret(row.id);
    const values = intakeParameters({ row, event }, sealed);
    values.forEach((value, index) => columns[index]?.push(value));
  }
  const result = await pool.query({ ...INSERT_PURCHASE_INTAKE_BATCH, values: columns });
  return new Map(
    result.rows.map((raw: Record<string, unknown>) => [
      scopedKey(raw.idempotency_scope as string, raw.idempotency_key as string),
      raw,
    ]),
  );
}
