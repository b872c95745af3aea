import type { Database } from '../database';
import type { PurchaseRow, SignedExternalRow } from '../schema';
import { CLAIM_BATCH_SIBLINGS } from '../sql/claim-batch-siblings';
import { CLAIM_READY_TO_SEND } from '../sql/claim-ready-to-send';
import { PERSIST_SIGNED_BATCH } from '../sql/persist-signed-batch';
import { WAKE_NEXT_TO_SEND } from '../sql/wake-next-to-send';
import { claimedFromRaw, type ClaimedPurchase } from './claimed-purchase';
import { fromDriverRow, signedExternalFromDriverRow } from './driver-rows';
import type { HeldLease } from './lease-repository';
import type { Fence } from './purchase-transitions';

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * A wallet's signed externals and the purchases they pay (docs/purchase-safety.md, Wallet batches):
 * the batch stored before its broadcast, the sender's claims of the purchases waiting for it, and
 * the claims of a batch's siblings when one member finds its transaction.
 */
export class SignedBatches {
  constructor(private readonly db: Database) {}

  /**
   * Persists one signed external for a whole batch before it is broadcast: the external itself
   * (its BOC stored once), and every member moved to `sending` pointing at it, each with its own
   * evidence and audit event; the wallet lease is extended to cover the message's validity. All or
   * nothing: null when any fence (a row or the wallet lease) was lost. Then nothing is stored and
   * the BOC must never be broadcast.
   */
  async persist(
    external: Omit<SignedExternalRow, 'createdAt'>,
    members: ReadonlyArray<{ fence: Fence; fromStatus: string; evidence: Record<string, unknown>; eventData: unknown }>,
    step: { stepStartedAt: Date; reason: string },
    walletLease: HeldLease,
    walletLeaseUntilMs: number,
  ): Promise<PurchaseRow[] | null> {
    if (external.messageCount !== members.length)
      throw new TypeError('a signed external pays each of its members once');
    let rows: Array<Record<string, unknown>>;
    try {
      ({ rows } = await this.db.$client.query<Record<string, unknown>>({
        ...PERSIST_SIGNED_BATCH,
        values: [
          members.map((m) => m.fence.id),
          members.map((m) => m.fence.version),
          members.map((m) => m.fence.owner),
          members.map((m) => m.fromStatus),
          members.map((m) => JSON.stringify(m.evidence)),
          members.map((m) => JSON.stringify(m.eventData ?? null)),
          new Date(walletLeaseUntilMs).toISOString(),
          walletLease.name,
          walletLease.owner,
          walletLease.fence,
          external.batchId,
          external.normalizedHash,
          external.seqno,
          external.validUntil,
          step.stepStartedAt.toISOString(),
          external.walletAddress,
          external.boc,
          external.messageCount,
          step.reason,
        ],
      }));
    } catch (error) {
      // Some members' fences held and others not: the statement failed as a whole.
      if ((error as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) return null;
      throw error;
    }
    if (rows.length !== members.length) return null;
    const byId = new Map(rows.map((raw) => [raw.id as string, fromDriverRow(raw)]));
    return members.map((m) => byId.get(m.fence.id)!);
  }

  /** The signed external a purchase points at (`batch_id`), or null if there is none. */
  async external(batchId: string): Promise<SignedExternalRow | null> {
    const result = await this.db.$client.query<Record<string, unknown>>({
      name: 'signed_external_by_batch',
      text: 'SELECT * FROM signed_externals WHERE batch_id = $1',
      values: [batchId],
    });
    const [raw] = result.rows;
    return raw ? signedExternalFromDriverRow(raw) : null;
  }

  /**
   * The batch of an external already signed for this purchase, from its append-only audit trail
   * (purchase_events), or null when it was never signed. The row itself cannot say: whoever can
   * write `purchases` (the gateway's role included) can move a signed purchase back to
   * `preparing` with its batch cleared (docs/security.md, attack 18).
   */
  async batchSignedFor(purchaseId: string): Promise<string | null> {
    const result = await this.db.$client.query<{ batch_id: string | null }>({
      name: 'purchase_signed_batch',
      text: `SELECT data->>'batch_id' AS batch_id FROM purchase_events
        WHERE purchase_id = $1 AND to_status = 'sending' ORDER BY id LIMIT 1`,
      values: [purchaseId],
    });
    const [row] = result.rows;
    return row ? (row.batch_id ?? 'unknown') : null;
  }

  /**
   * Claims, for a sender holding the wallet lease, up to `limit` purchases of `walletAddress`
   * other than its own that finished `preparing` (payment request stored, nothing signed) and that
   * nobody holds, oldest first, whatever their schedule (they wait for this very sender), each
   * with its sealed secret.
   */
  async claimReadyToSend(
    walletAddress: string,
    excludeId: string,
    limit: number,
    owner: string,
    leaseMs: number,
  ): Promise<ClaimedPurchase[]> {
    if (limit <= 0) return [];
    const result = await this.db.$client.query<Record<string, unknown>>({
      ...CLAIM_READY_TO_SEND,
      values: [walletAddress, excludeId, limit, owner, leaseMs],
    });
    return result.rows.map(claimedFromRaw);
  }

  /**
   * Makes the oldest unheld purchase of `walletAddress` that waits to be sent due now, with a new
   * version (so its parked job goes stale): the job the caller enqueues for it becomes the wallet's
   * next sender and batches the others. Null when nobody waits.
   */
  async wakeNextToSend(walletAddress: string): Promise<{ id: string; version: number } | null> {
    const result = await this.db.$client.query<{ id: string; version: number }>({
      ...WAKE_NEXT_TO_SEND,
      values: [walletAddress],
    });
    return result.rows[0] ?? null;
  }

  /**
   * Claims the other members of a batch that wait in `confirming` and that nobody holds, so the
   * member that found the batch's transaction settles them with it: `paid` false takes those whose
   * payment is not yet recorded, true those waiting for delivery. Only GRAM purchases: a USDT
   * payment is judged by its own jetton transfer.
   */
  async claimSiblings(
    batchId: string,
    excludeId: string,
    paid: boolean,
    owner: string,
    leaseMs: number,
  ): Promise<PurchaseRow[]> {
    const result = await this.db.$client.query<Record<string, unknown>>({
      ...CLAIM_BATCH_SIBLINGS,
      values: [batchId, excludeId, paid, owner, leaseMs],
    });
    return result.rows.map(fromDriverRow);
  }
}
