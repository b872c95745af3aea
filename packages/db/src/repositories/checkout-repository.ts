import type { Database } from '../database';
import type { PurchaseRow } from '../schema';
import type { PurchaseEventInput } from './purchase-intake-batch';
import { ACCEPT_CHECKOUT_BOC } from '../sql/accept-checkout-boc';
import { CHECKOUT_INTAKE } from '../sql/checkout-intake';
import type { NamedStatement } from '../sql/named-statement';
import { orderByIdempotencyKey } from '../sql/order-by-idempotency-key';
import { TERMINAL_STATUS_LIST } from '../sql/domain-lists';
import { fromDriverRow } from './driver-rows';
import { insertOrGetByKey, type KeyedInsertResult, type OrderIntakeColumns } from './keyed-insert';
import { OPEN_UNPAID_STATUSES } from './open-orders';

/** A new checkout as the gateway stores it (status `preparing`, no secret); its idempotency scope is the payer address. */
export interface NewCheckout extends OrderIntakeColumns {
  /** Raw form. */
  payerAddress: string;
  payerPublicKey: string | null;
  payerStateInit: string | null;
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
  /** Also move an `expired` checkout on: only with its payment proven on chain. */
  fromExpired?: boolean;
}

/** The payer wallet's last transaction lt when the checkout was prepared: its payment can only come later. */
export function checkoutSinceLt(row: Pick<PurchaseRow, 'evidence'>): bigint {
  const since = (row.evidence as { checkout?: { since_lt?: string } } | null)?.checkout?.since_lt;
  return BigInt(since ?? '0');
}

const SELECT_CHECKOUT = "SELECT * FROM purchases WHERE mode = 'client_signed'";
const BY_KEY = orderByIdempotencyKey('checkout_by_idempotency_key', 'client_signed');

export type InsertCheckoutResult = KeyedInsertResult<PurchaseRow>;

/** Checkouts: `purchases` rows with `mode = 'client_signed'`. Their worker steps use PurchaseTransitions like any purchase. */
export class CheckoutRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims the idempotency key among this payer's checkouts and stores the checkout with its first
   * event, or finds the checkout the payer already stored under it.
   */
  insertOrGetByKey(
    checkout: NewCheckout,
    event: Pick<PurchaseEventInput, 'actor' | 'reason'>,
  ): Promise<InsertCheckoutResult> {
    return insertOrGetByKey(
      async () =>
        (
          await this.db.$client.query<Record<string, unknown>>({
            ...CHECKOUT_INTAKE,
            values: [
              checkout.id,
              checkout.idempotencyKey,
              checkout.idempotencyScope,
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
              JSON.stringify(checkout.orderLine),
            ],
          })
        ).rows[0],
      () => this.findByIdempotencyKey(checkout.idempotencyScope, checkout.idempotencyKey),
    );
  }

  findById(id: string): Promise<PurchaseRow | undefined> {
    return this.findOne({ name: 'checkout_by_id', text: `${SELECT_CHECKOUT} AND id = $1` }, [id]);
  }

  /** The checkout `key` names in its idempotency scope: the proven payer's raw address, or `client:<id>`. */
  findByIdempotencyKey(scope: string, key: string): Promise<PurchaseRow | undefined> {
    return this.findOne(BY_KEY, [scope, key]);
  }

  private async findOne(statement: NamedStatement, values: unknown[]) {
    const result = await this.db.$client.query<Record<string, unknown>>({ ...statement, values });
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
      ...ACCEPT_CHECKOUT_BOC,
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
        accepted.fromExpired === true ? 'expired' : 'awaiting_signature',
      ],
    });
    const [raw] = result.rows as Array<Record<string, unknown>>;
    return raw ? fromDriverRow(raw) : null;
  }

  /**
   * This payer's checkouts waiting to be paid, counted up to `cap` (the live-wallet index serves
   * it): each is a watch of the payer's account on the shared chain budget (docs/security.md, attack 17).
   */
  async countOpenOfPayer(payerAddress: string, cap: number): Promise<number> {
    const result = await this.db.$client.query<{ open: number }>({
      name: 'open_checkouts_of_payer',
      text: `SELECT count(*)::int AS open FROM (SELECT 1 FROM purchases WHERE wallet_address = $1
        AND mode = 'client_signed' AND status IN (${OPEN_UNPAID_STATUSES.map((status) => `'${status}'`).join(', ')})
        AND status NOT IN ${TERMINAL_STATUS_LIST} LIMIT $2) AS open_checkouts`,
      values: [payerAddress, cap],
    });
    return result.rows[0]!.open;
  }
}
