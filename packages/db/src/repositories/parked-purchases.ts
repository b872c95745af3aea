import type { Database } from '../database';
import type { PurchaseRow } from '../schema';
import { CLAIM_PARKED } from '../sql/claim-parked';
import { PARKED_AWAITING_DELIVERY } from '../sql/parked-awaiting-delivery';
import { PARKED_AWAITING_LANDING } from '../sql/parked-awaiting-landing';
import { PARKED_AWAITING_SIGNATURE } from '../sql/parked-awaiting-signature';
import { fromDriverRow } from './driver-rows';

/** A parked purchase as the shared look that may wake it reads it: no more than it needs to group it. */
export interface ParkedPurchase {
  id: string;
  version: number;
  /** The Fragment session its order was made on (absent on requests stored before it was recorded). */
  fragmentSession: string | undefined;
}

/** A checkout parked for its buyer's payment, as the checkout watch reads it. */
export interface ParkedCheckout {
  id: string;
  version: number;
  /** The payer wallet (raw) whose transactions would show the payment. */
  payer: string;
}

/** A purchase parked until its broadcast external lands, as the chain watch reads it. */
export interface ParkedLanding {
  id: string;
  version: number;
  /** The paying wallet (as stored) whose transactions would show the external. */
  walletAddress: string;
  /** The external's `valid_until` (unix seconds): until then the watch rebroadcasts it. */
  validUntil: number | null;
}

/**
 * Purchases parked until something outside shows (a delivery, a buyer's payment, an external
 * landing), as the shared looks read them, and the fenced claims that wake those a look found moved.
 */
export class ParkedPurchases {
  constructor(private readonly db: Database) {}

  /**
   * Paid purchases parked in `confirming` until Fragment shows them delivered, that nobody holds,
   * oldest first: what the delivery watch looks at (read only).
   */
  async awaitingDelivery(limit: number): Promise<ParkedPurchase[]> {
    const result = await this.db.$client.query<{ id: string; version: number; fragment_session: string | null }>({
      ...PARKED_AWAITING_DELIVERY,
      values: [limit],
    });
    return result.rows.map((row) => ({
      id: row.id,
      version: row.version,
      fragmentSession: row.fragment_session ?? undefined,
    }));
  }

  /**
   * Checkouts parked in `awaiting_signature` until their payment shows on chain, that nobody
   * holds, oldest first: what the checkout watch looks at (read only).
   */
  async awaitingSignature(limit: number): Promise<ParkedCheckout[]> {
    const result = await this.db.$client.query<{ id: string; version: number; payer: string | null }>({
      ...PARKED_AWAITING_SIGNATURE,
      values: [limit],
    });
    return result.rows.flatMap((row) => (row.payer ? [{ id: row.id, version: row.version, payer: row.payer }] : []));
  }

  /**
   * Purchases parked in `confirming` until their broadcast external shows on chain, that nobody
   * holds, oldest first: what the chain watch looks at (read only).
   */
  async awaitingLanding(limit: number): Promise<ParkedLanding[]> {
    const result = await this.db.$client.query<{
      id: string;
      version: number;
      wallet_address: string;
      valid_until: number | null;
    }>({
      ...PARKED_AWAITING_LANDING,
      values: [limit],
    });
    return result.rows.map((row) => ({
      id: row.id,
      version: row.version,
      walletAddress: row.wallet_address,
      validUntil: row.valid_until,
    }));
  }

  /**
   * Claims parked rows a shared look found moved (a delivery shown), whatever their schedule,
   * fenced on the version the look read and on their status; a row that moved meanwhile or that
   * someone holds is left out. Returns the rows claimed.
   */
  async claim(
    fences: ReadonlyArray<{ id: string; version: number }>,
    status: string,
    owner: string,
    leaseMs: number,
  ): Promise<PurchaseRow[]> {
    if (fences.length === 0) return [];
    const result = await this.db.$client.query<Record<string, unknown>>({
      ...CLAIM_PARKED,
      values: [fences.map((f) => f.id), fences.map((f) => f.version), status, owner, leaseMs],
    });
    return result.rows.map(fromDriverRow);
  }
}
