import type { Database } from '../database';
import type { PurchaseRow } from '../schema';
import type { PurchaseEventInput } from './purchase-intake-batch';
import {
  fromDriverRow,
  hasCode,
  IdempotencyKeyLockedError,
  LOCK_NOT_AVAILABLE,
  rowRejection,
} from './purchase-repository';

/** A new checkout as the gateway stores it (status `preparing`, no secret). */
export interface NewCheckout {
  id: string;
  idempotencyKey: string;
  requestFingerprint: string;
  fingerprintKeyId: string;
  product: string;
  username: string;
  amount: number;
  paymentMethod: string;
  /** Raw form. */
  payerAddress: string;
  payerPublicKey: string | null;
  payerStateInit: string | null;
  requestId: string;
}

/** A signed external accepted for a checkout (from /submitted, or found on chain by the worker). */
export interface AcceptedCheckoutBoc {
  boc: string;
  normalizedHash: string;
  seqno: number;
  validUntil: number;
  /** The payer wallet's last transaction lt when the checkout was prepared: its payment can only come later. */
  sinceLt: string;
  actor: string;
  reason: string;
  data?: unknown;
}

/** The payer wallet's last transaction lt when the checkout was prepared: its payment can only come later. */
export function checkoutSinceLt(row: Pick<PurchaseRow, 'evidence'>): bigint {
  const since = (row.evidence as { checkout?: { since_lt?: string } } | null)?.checkout?.since_lt;
  return BigInt(since ?? '0');
}

export type InsertCheckoutResult = { created: boolean; checkout: PurchaseRow };

const CHECKOUT_INTAKE_SQL = `
  WITH checkout AS (
    INSERT INTO purchases (id, mode, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                           payment_method, requested_wallet_address, wallet_address, payer_public_key, payer_state_init, request_id)
    VALUES ($1, 'client_signed', $2, $3, $4, 'preparing', $5, $6, $7, $8, $9, $9, $10, $11, $12)
    ON CONFLICT (mode, idempotency_key) DO NOTHING
    RETURNING *
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, request_id)
    SELECT id, NULL, 'preparing', version, $13, $14, $12 FROM checkout
  )
  SELECT * FROM checkout`;

// The signed external and the checkout's move to `submitted`, in one statement (purchases.batch_id
// references signed_externals, so neither is stored without the other). Fenced on the status: the
// first BOC accepted wins, whoever brings it (the /submitted route or the worker's chain watch).
// The version moves on and the lease is cleared, so a worker still holding the row (its chain
// watch) is fenced out and the next job runs the `submitted` step.
const ACCEPT_BOC_SQL = `
  WITH updated AS (
    UPDATE purchases p SET status = 'submitted', batch_id = $2::uuid, normalized_hash = $3::text, seqno = $4::int,
      valid_until = $5::int, evidence = coalesce(p.evidence, '{}'::jsonb) || jsonb_build_object('batch', jsonb_build_object('id', $2::text, 'index', 0, 'size', 1, 'since_lt', $6::text)),
      step_started_at = now(), next_run_at = now(), attempt = 0, lease_owner = NULL, lease_expires_at = NULL,
      version = p.version + 1, updated_at = now()
    WHERE p.id = $1::uuid AND p.mode = 'client_signed' AND p.status = 'awaiting_signature'
    RETURNING p.*
  ),
  external AS (
    INSERT INTO signed_externals (batch_id, wallet_address, boc, normalized_hash, seqno, valid_until, message_count)
    SELECT $2::uuid, wallet_address, $7::text, $3::text, $4::int, $5::int, 1 FROM updated
  ),
  event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
    SELECT id, 'awaiting_signature', 'submitted', version, $8::text, $9::text, $10::jsonb FROM updated
  )
  SELECT * FROM updated`;

/** Checkouts: `purchases` rows with `mode = 'client_signed'`. Their worker steps use PurchaseTransitions like any purchase. */
export class CheckoutRepository {
  constructor(private readonly db: Database) {}

  /** Claims the (checkout-scoped) idempotency key and stores the checkout with its first event, or finds the key's checkout. */
  async insertOrGetByKey(
    checkout: NewCheckout,
    event: Pick<PurchaseEventInput, 'actor' | 'reason'>,
  ): Promise<InsertCheckoutResult> {
    let inserted: Record<string, unknown> | undefined;
    try {
      const result = await this.db.$client.query<Record<string, unknown>>({
        name: 'checkout_intake',
        text: CHECKOUT_INTAKE_SQL,
        values: [
          checkout.id,
          checkout.idempotencyKey,
          checkout.requestFingerprint,
          checkout.fingerprintKeyId,
          checkout.product,
          checkout.username,
          checkout.amount,
          checkout.paymentMethod,
          checkout.payerAddress,
          checkout.payerPublicKey,
          checkout.payerStateInit,
          checkout.requestId,
          event.actor,
          event.reason ?? null,
        ],
      });
      inserted = result.rows[0];
    } catch (error) {
      if (hasCode(error, LOCK_NOT_AVAILABLE)) throw new IdempotencyKeyLockedError();
      throw rowRejection(error) ?? error;
    }
    if (inserted) return { created: true, checkout: fromDriverRow(inserted) };
    const existing = await this.findByIdempotencyKey(checkout.idempotencyKey);
    if (!existing) throw new Error('idempotency key conflict without a row');
    return { created: false, checkout: existing };
  }

  findById(id: string): Promise<PurchaseRow | undefined> {
    return this.findOne('checkout_by_id', 'id', id);
  }

  findByIdempotencyKey(key: string): Promise<PurchaseRow | undefined> {
    return this.findOne('checkout_by_idempotency_key', 'idempotency_key', key);
  }

  private async findOne(name: string, column: 'id' | 'idempotency_key', value: string) {
    const result = await this.db.$client.query<Record<string, unknown>>({
      name,
      text: `SELECT * FROM purchases WHERE mode = 'client_signed' AND ${column} = $1`,
      values: [value],
    });
    const [raw] = result.rows;
    return raw ? fromDriverRow(raw) : undefined;
  }

  /**
   * Stores the accepted signed external and moves the checkout from `awaiting_signature` to
   * `submitted` (one statement). Null when the checkout no longer awaits a signature (another BOC
   * was accepted first, or it ended): the caller reads the row again to tell which.
   */
  async acceptSignedBoc(id: string, accepted: AcceptedCheckoutBoc, batchId: string): Promise<PurchaseRow | null> {
    const result = await this.db.$client.query({
      name: 'checkout_accept_boc',
      text: ACCEPT_BOC_SQL,
      values: [
        id,
        batchId,
        accepted.normalizedHash,
        accepted.seqno,
        accepted.validUntil,
        accepted.sinceLt,
        accepted.boc,
        accepted.actor,
        accepted.reason,
        accepted.data === undefined ? null : JSON.stringify(accepted.data),
      ],
    });
    const [raw] = result.rows as Array<Record<string, unknown>>;
    return raw ? fromDriverRow(raw) : null;
  }
}
