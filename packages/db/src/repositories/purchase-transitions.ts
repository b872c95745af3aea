import { and, asc, eq, inArray, isNotNull, isNull, ne, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Database } from '../database';
import { leases, purchaseEvents, purchases, walletSecrets, type PurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import type { HeldLease } from './lease-repository';
import { fromDriverRow } from './purchase-repository';

/** Columns a step may write besides status/version/lease bookkeeping. */
export type PurchaseChanges = Partial<
  Pick<
    PurchaseRow,
    | 'status'
    | 'attempt'
    | 'nextRunAt'
    | 'stepStartedAt'
    | 'walletAddress'
    | 'walletVersion'
    | 'fragmentReqId'
    | 'fragmentRef'
    | 'quoteNano'
    | 'paymentRequest'
    | 'signedBoc'
    | 'normalizedHash'
    | 'seqno'
    | 'validUntil'
    | 'batchId'
    | 'transactionHash'
    | 'transactionLt'
    | 'error'
    | 'evidence'
    | 'completedAt'
  >
>;

export interface TransitionEvent {
  toStatus: string;
  reason: string;
  data?: unknown;
}

/** A row as held by one worker: the version it last wrote and the lease owner it wrote it as. */
export interface Fence {
  id: string;
  version: number;
  owner: string;
}

/**
 * Fenced writes of the purchase state machine (engineering reference §2.4). Every statement is
 * `WHERE id = $id AND version = $v AND lease_owner = $me` and bumps `version`, so a worker whose
 * lease expired (and whose row another worker claimed) changes nothing: zero rows, null result.
 * No network call ever runs inside these transactions.
 */
/** The columns a claim sets: the lease, and a new version so any older job for this row is stale. */
function leaseClaim(owner: string, leaseMs: number) {
  return {
    leaseOwner: owner,
    leaseExpiresAt: sql`now() + ${leaseMs} * interval '1 millisecond'`,
    version: sql`${purchases.version} + 1`,
    updatedAt: sql`now()`,
  };
}

export class PurchaseTransitions {
  constructor(private readonly db: Database) {}

  /**
   * Claims a due, unleased live purchase. Zero rows means a terminal row, a backoff not yet due,
   * or another live holder. The claim bumps the version, so whoever held an older one is fenced out.
   */
  async claim(id: string, owner: string, leaseMs: number): Promise<PurchaseRow | null> {
    const [row] = await this.db
      .update(purchases)
      .set(leaseClaim(owner, leaseMs))
      .where(
        and(
          eq(purchases.id, id),
          sql`${purchases.nextRunAt} <= now()`,
          sql`${purchases.status} NOT IN ('completed', 'failed', 'reconciliation_required')`,
          sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Extends the holder's lease without bumping the version (heartbeat). */
  async heartbeat(fence: Fence, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .update(purchases)
      .set({ leaseExpiresAt: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(and(eq(purchases.id, fence.id), eq(purchases.version, fence.version), eq(purchases.leaseOwner, fence.owner)))
      .returning({ id: purchases.id });
    return result.length === 1;
  }

  /**
   * One fenced update plus (optionally) its audit event, atomically. A terminal status also
   * destroys the stored wallet secret in the same statement. `release` clears the lease (the next
   * step runs as a new job for the new version).
   */
  async apply(
    fence: Fence,
    changes: PurchaseChanges,
    options: { event?: TransitionEvent; release?: boolean; fromStatus?: string; actor?: string } = {},
  ): Promise<PurchaseRow | null> {
    const update = this.db
      .update(purchases)
      .set({
        ...changes,
        ...(options.release ? { leaseOwner: null, leaseExpiresAt: null } : {}),
        version: sql`${purchases.version} + 1`,
        updatedAt: sql`now()`,
      })
      .where(and(eq(purchases.id, fence.id), eq(purchases.version, fence.version), eq(purchases.leaseOwner, fence.owner)))
      .returning();
    const { event } = options;
    // One statement (data-modifying CTEs run atomically): the update, its event and, on a terminal
    // status, the secret's destruction cost one round trip instead of a transaction's four or five.
    const result = await this.db.execute(sql`
      WITH updated AS (${update.getSQL()}),
      event AS (
        INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
        SELECT id, ${options.fromStatus ?? null}, ${event?.toStatus ?? null}, version, ${options.actor ?? fence.owner}, ${event?.reason ?? null},
               ${event?.data === undefined ? null : JSON.stringify(event.data)}::jsonb
        FROM updated WHERE ${event ? sql`true` : sql`false`}
      ),
      destroyed AS (
        UPDATE wallet_secrets SET ciphertext = NULL, wrapped_key = NULL, destroyed_at = now()
        WHERE purchase_id IN (SELECT id FROM updated WHERE status IN ('completed', 'failed', 'reconciliation_required')) AND destroyed_at IS NULL
      )
      SELECT * FROM updated`);
    const raw = result.rows[0] as Record<string, unknown> | undefined;
    return raw ? fromDriverRow(raw) : null;
  }

  /**
   * Persists one signed external for a whole batch before it is broadcast: every row moves to
   * `sending` with the same BOC/hash/seqno/valid_until/batch id, and the wallet lease is extended
   * to cover the message's validity, all or nothing. Null when any fence (row or wallet lease)
   * was lost: then nothing is stored and the BOC must never be broadcast.
   */
  async persistSignedBatch(
    members: Array<{ fence: Fence; changes: PurchaseChanges; event: TransitionEvent; fromStatus: string }>,
    walletLease: HeldLease,
    walletLeaseUntilMs: number,
  ): Promise<PurchaseRow[] | null> {
    return this.db.transaction(async (tx) => {
      const extended = await tx
        .update(leases)
        .set({ expiresAt: new Date(walletLeaseUntilMs), updatedAt: sql`now()` })
        .where(and(eq(leases.name, walletLease.name), eq(leases.owner, walletLease.owner), eq(leases.fence, walletLease.fence), sql`${leases.expiresAt} > now()`))
        .returning({ name: leases.name });
      if (extended.length !== 1) {
        tx.rollback();
      }
      const rows: PurchaseRow[] = [];
      for (const member of members) {
        const [row] = await tx
          .update(purchases)
          .set({ ...member.changes, version: sql`${purchases.version} + 1`, updatedAt: sql`now()` })
          .where(and(eq(purchases.id, member.fence.id), eq(purchases.version, member.fence.version), eq(purchases.leaseOwner, member.fence.owner)))
          .returning();
        if (!row) tx.rollback();
        await tx.insert(purchaseEvents).values({
          purchaseId: row!.id,
          fromStatus: member.fromStatus,
          toStatus: member.event.toStatus,
          version: row!.version,
          actor: member.fence.owner,
          reason: member.event.reason,
          data: member.event.data ?? null,
        });
        rows.push(row!);
      }
      return rows;
    }).catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
  }

  /**
   * Purchases of `walletAddress` that finished `preparing` (payment request stored, nothing
   * signed) and that nobody holds: the candidates a sender may batch.
   */
  async listReadyToSend(walletAddress: string, excludeId: string, limit: number): Promise<PurchaseRow[]> {
    if (limit <= 0) return [];
    return this.db
      .select()
      .from(purchases)
      .where(
        and(
          eq(purchases.walletAddress, walletAddress),
          eq(purchases.status, 'preparing'),
          isNotNull(purchases.paymentRequest),
          isNull(purchases.signedBoc),
          ne(purchases.id, excludeId),
          sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
        ),
      )
      .orderBy(asc(purchases.createdAt))
      .limit(limit);
  }

  /**
   * Makes the oldest unheld purchase of `walletAddress` that waits to be sent due now, with a new
   * version (so its parked job goes stale): the job the caller enqueues for it becomes the wallet's
   * next sender and batches the others. Null when nobody waits.
   */
  async wakeNextToSend(walletAddress: string): Promise<{ id: string; version: number } | null> {
    const result = await this.db.execute<{ id: string; version: number }>(sql`
      UPDATE purchases SET next_run_at = now(), version = version + 1, updated_at = now()
      WHERE id = (
        SELECT id FROM purchases
        WHERE wallet_address = ${walletAddress} AND status = 'preparing' AND payment_request IS NOT NULL AND signed_boc IS NULL
          AND (lease_owner IS NULL OR lease_expires_at < now())
        ORDER BY created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, version`);
    return result.rows[0] ?? null;
  }

  /** Claims extra batch members regardless of their schedule (they wait for this very sender). */
  async claimForBatch(rows: Array<Pick<PurchaseRow, 'id' | 'version'>>, owner: string, leaseMs: number): Promise<PurchaseRow[]> {
    const claimed: PurchaseRow[] = [];
    for (const candidate of rows) {
      const [row] = await this.db
        .update(purchases)
        .set(leaseClaim(owner, leaseMs))
        .where(
          and(
            eq(purchases.id, candidate.id),
            eq(purchases.version, candidate.version),
            eq(purchases.status, 'preparing'),
            isNull(purchases.signedBoc),
            sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
          ),
        )
        .returning();
      if (row) claimed.push(row);
    }
    return claimed;
  }

  /**
   * Our purchases of the same product and quantity for the same recipient, created since `since`,
   * that were paid on chain and not failed. A history that names the recipient and quantity but
   * not the order can be trusted only when it holds at least this many matching rows.
   */
  async countPaidLookalikes(order: Pick<PurchaseRow, 'product' | 'username' | 'amount'>, since: Date): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(purchases)
      .where(
        and(
          sql`lower(${purchases.username}) = lower(${order.username})`,
          eq(purchases.product, order.product),
          eq(purchases.amount, order.amount),
          sql`${purchases.createdAt} >= ${since.toISOString()}`,
          isNotNull(purchases.transactionHash),
          ne(purchases.status, 'failed'),
        ),
      );
    return row?.count ?? 0;
  }

  /** The sealed wallet secret, or null once destroyed. */
  async sealedSecret(purchaseId: string): Promise<SealedSecret | null> {
    const [row] = await this.db.select().from(walletSecrets).where(eq(walletSecrets.purchaseId, purchaseId));
    if (!row || row.destroyedAt || !row.ciphertext || !row.wrappedKey) return null;
    return { keyId: row.keyId, wrappedKey: row.wrappedKey, ciphertext: row.ciphertext };
  }

  async findMany(ids: string[]): Promise<PurchaseRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(purchases).where(inArray(purchases.id, ids));
  }
}
