import { and, asc, eq, inArray, isNotNull, isNull, ne, sql, TransactionRollbackError } from 'drizzle-orm';
import type { Database } from '../database';
import { leases, purchases, signedExternals, walletSecrets, type PurchaseRow, type SignedExternalRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import type { HeldLease } from './lease-repository';
import { driverValue, fencedUpdateStatement } from './fenced-update-sql';
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
  /** applyMany: each row's own event data, in the order of the fences (instead of `data`). */
  dataPerRow?: readonly unknown[];
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

/** Orders that look alike in Fragment's history: same recipient (case-insensitive), product and quantity. */
export function lookalikeKey(order: Pick<PurchaseRow, 'product' | 'username' | 'amount'>): string {
  return `${order.username.toLowerCase()}|${order.product}|${order.amount}`;
}

function eventData(event: TransitionEvent | undefined, index: number): string | null {
  const data = event?.dataPerRow ? event.dataPerRow[index] : event?.data;
  return data === undefined ? null : JSON.stringify(data);
}

// The hottest statement of the worker: a named prepared statement, parsed and planned once per
// connection. A queued purchase is moved to `preparing` by its claim (with its audit event), so
// starting a purchase costs one round trip.
const CLAIM_SQL = `
  WITH before AS (
    SELECT id, status AS from_status FROM purchases WHERE id = $1 FOR UPDATE
  ),
  claimed AS (
    UPDATE purchases p SET lease_owner = $2, lease_expires_at = now() + $3 * interval '1 millisecond', version = p.version + 1, updated_at = now(),
      status = CASE WHEN before.from_status = 'queued' THEN 'preparing' ELSE p.status END,
      step_started_at = CASE WHEN before.from_status = 'queued' THEN now() ELSE p.step_started_at END
    FROM before
    WHERE p.id = before.id AND p.next_run_at <= now() AND p.status NOT IN ('completed', 'failed', 'reconciliation_required')
      AND (p.lease_owner IS NULL OR p.lease_expires_at < now())
    RETURNING p.*, before.from_status
  ),
  started AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason)
    SELECT id, from_status, status, version, lease_owner, 'preparing started' FROM claimed WHERE from_status = 'queued'
  )
  SELECT * FROM claimed`;

export class PurchaseTransitions {
  constructor(private readonly db: Database) {}

  /**
   * Claims a due, unleased live purchase (a queued one starts `preparing`). Zero rows means a
   * terminal row, a backoff not yet due, or another live holder. The claim bumps the version, so
   * whoever held an older one is fenced out.
   */
  async claim(id: string, owner: string, leaseMs: number): Promise<PurchaseRow | null> {
    const result = await this.db.$client.query<Record<string, unknown>>({ name: 'purchase_claim', text: CLAIM_SQL, values: [id, owner, leaseMs] });
    const [raw] = result.rows;
    return raw ? fromDriverRow(raw) : null;
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
    const [row] = await this.applyMany([fence], changes, options);
    return row ?? null;
  }

  /**
   * `apply` for many rows held under their own fences (a batch's members), with the same changes
   * and event, in one statement; `mergeEvidence` adds keys to each row's own evidence. Returns the
   * rows whose fence held; the caller compares counts.
   */
  async applyMany(
    fences: readonly Fence[],
    changes: PurchaseChanges,
    options: { event?: TransitionEvent; release?: boolean; fromStatus?: string; actor?: string; mergeEvidence?: Record<string, unknown> } = {},
  ): Promise<PurchaseRow[]> {
    if (fences.length === 0) return [];
    const keys = (Object.keys(changes) as Array<keyof PurchaseChanges>).filter((key) => changes[key] !== undefined);
    const many = fences.length > 1;
    const statement = fencedUpdateStatement({ keys, release: options.release ?? false, mergeEvidence: options.mergeEvidence !== undefined, many });
    const { event } = options;
    const values: unknown[] = [
      many ? fences.map((f) => f.id) : fences[0]!.id,
      many ? fences.map((f) => f.version) : fences[0]!.version,
      many ? fences.map((f) => f.owner) : fences[0]!.owner,
      options.fromStatus ?? null,
      event?.toStatus ?? null,
      event?.reason ?? null,
      many ? fences.map((_, index) => eventData(event, index)) : eventData(event, 0),
      options.actor ?? null,
      ...(options.mergeEvidence !== undefined ? [JSON.stringify(options.mergeEvidence)] : []),
      ...keys.map((key) => driverValue(key, changes[key])),
    ];
    const result = await this.db.$client.query<Record<string, unknown>>({ name: statement.name, text: statement.text, values });
    return result.rows.map(fromDriverRow);
  }

  /**
   * Persists one signed external for a whole batch before it is broadcast: the external itself
   * (its BOC stored once), and every member moved to `sending` pointing at it, each with its own
   * evidence and audit event; the wallet lease is extended to cover the message's validity. All or
   * nothing: null when any fence (a row or the wallet lease) was lost. Then nothing is stored and
   * the BOC must never be broadcast.
   */
  async persistSignedBatch(
    external: Omit<SignedExternalRow, 'createdAt'>,
    members: ReadonlyArray<{ fence: Fence; fromStatus: string; evidence: Record<string, unknown>; eventData: unknown }>,
    step: { stepStartedAt: Date; reason: string },
    walletLease: HeldLease,
    walletLeaseUntilMs: number,
  ): Promise<PurchaseRow[] | null> {
    return this.db
      .transaction(async (tx) => {
        const extended = await tx
          .update(leases)
          .set({ expiresAt: new Date(walletLeaseUntilMs), updatedAt: sql`now()` })
          .where(and(eq(leases.name, walletLease.name), eq(leases.owner, walletLease.owner), eq(leases.fence, walletLease.fence), sql`${leases.expiresAt} > now()`))
          .returning({ name: leases.name });
        if (extended.length !== 1) tx.rollback();
        await tx.insert(signedExternals).values(external);
        const result = await tx.execute(sql`
          WITH member AS (
            SELECT * FROM unnest(
              ${sql.param(members.map((m) => m.fence.id))}::uuid[], ${sql.param(members.map((m) => m.fence.version))}::int[], ${sql.param(members.map((m) => m.fence.owner))}::text[],
              ${sql.param(members.map((m) => m.fromStatus))}::text[], ${sql.param(members.map((m) => JSON.stringify(m.evidence)))}::jsonb[], ${sql.param(members.map((m) => JSON.stringify(m.eventData ?? null)))}::jsonb[]
            ) AS m(id, version, owner, from_status, evidence, event_data)
          ),
          updated AS (
            UPDATE purchases p SET
              status = 'sending', batch_id = ${external.batchId}, normalized_hash = ${external.normalizedHash}, seqno = ${external.seqno},
              valid_until = ${external.validUntil}, step_started_at = ${step.stepStartedAt.toISOString()}, evidence = member.evidence,
              version = p.version + 1, updated_at = now()
            FROM member
            WHERE p.id = member.id AND p.version = member.version AND p.lease_owner = member.owner
            RETURNING p.*, member.from_status AS event_from_status, member.event_data AS event_data
          ),
          event AS (
            INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data)
            SELECT id, event_from_status, 'sending', version, lease_owner, ${step.reason}, event_data FROM updated
          )
          SELECT * FROM updated`);
        if (result.rows.length !== members.length) tx.rollback();
        const byId = new Map((result.rows as Array<Record<string, unknown>>).map((raw) => [raw.id as string, fromDriverRow(raw)]));
        return members.map((m) => byId.get(m.fence.id)!);
      })
      .catch((error: unknown) => {
        if (error instanceof TransactionRollbackError) return null;
        throw error;
      });
  }

  /** The signed external a purchase points at (`batch_id`), or null if there is none. */
  async signedExternal(batchId: string): Promise<SignedExternalRow | null> {
    const [row] = await this.db.select().from(signedExternals).where(eq(signedExternals.batchId, batchId));
    return row ?? null;
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
          isNull(purchases.batchId),
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
        WHERE wallet_address = ${walletAddress} AND status = 'preparing' AND payment_request IS NOT NULL AND batch_id IS NULL
          AND (lease_owner IS NULL OR lease_expires_at < now())
        ORDER BY created_at
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      )
      RETURNING id, version`);
    return result.rows[0] ?? null;
  }

  /** Claims extra batch members regardless of their schedule (they wait for this very sender), in one statement. */
  async claimForBatch(rows: ReadonlyArray<Pick<PurchaseRow, 'id' | 'version'>>, owner: string, leaseMs: number): Promise<PurchaseRow[]> {
    if (rows.length === 0) return [];
    const claimed = await this.db
      .update(purchases)
      .set(leaseClaim(owner, leaseMs))
      .where(
        and(
          sql`(${purchases.id}, ${purchases.version}) IN (SELECT * FROM unnest(${sql.param(rows.map((r) => r.id))}::uuid[], ${sql.param(rows.map((r) => r.version))}::int[]))`,
          eq(purchases.status, 'preparing'),
          isNull(purchases.batchId),
          sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
        ),
      )
      .returning();
    const order = new Map(rows.map((row, index) => [row.id, index]));
    return claimed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
  }

  /**
   * Claims the other members of a batch that wait in `confirming` and that nobody holds, so the
   * member that found the batch's transaction settles them with it: `paid` false takes those whose
   * payment is not yet recorded, true those waiting for delivery. Only GRAM purchases: a USDT
   * payment is judged by its own jetton transfer.
   */
  async claimBatchSiblings(batchId: string, excludeId: string, paid: boolean, owner: string, leaseMs: number): Promise<PurchaseRow[]> {
    return this.db
      .update(purchases)
      .set(leaseClaim(owner, leaseMs))
      .where(
        and(
          eq(purchases.batchId, batchId),
          ne(purchases.id, excludeId),
          eq(purchases.status, 'confirming'),
          eq(purchases.paymentMethod, 'gram'),
          paid ? isNotNull(purchases.transactionHash) : isNull(purchases.transactionHash),
          sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
        ),
      )
      .returning();
  }

  /**
   * Our purchases of the same product and quantity for the same recipient, created since `since`,
   * that were paid on chain and not failed. A history that names the recipient and quantity but
   * not the order can be trusted only when it holds at least this many matching rows.
   */
  async countPaidLookalikes(order: Pick<PurchaseRow, 'product' | 'username' | 'amount'>, since: Date): Promise<number> {
    return (await this.paidLookalikesSince([order], since)).get(lookalikeKey(order))?.length ?? 0;
  }

  /**
   * `countPaidLookalikes` for many orders with one query: when each paid look-alike created since
   * `since` was created, by order key (`lookalikeKey`); callers count per purchase.
   */
  async paidLookalikesSince(orders: ReadonlyArray<Pick<PurchaseRow, 'product' | 'username' | 'amount'>>, since: Date): Promise<Map<string, Date[]>> {
    const byKey = new Map<string, Date[]>();
    if (orders.length === 0) return byKey;
    const result = await this.db.execute<{ username: string; product: string; amount: number; created_at: string | Date }>(sql`
      SELECT lower(username) AS username, product, amount, created_at FROM purchases
      WHERE (lower(username), product, amount) IN (
              SELECT * FROM unnest(${sql.param(orders.map((o) => o.username.toLowerCase()))}::text[], ${sql.param(orders.map((o) => o.product))}::text[], ${sql.param(orders.map((o) => o.amount))}::int[]))
        AND created_at >= ${since.toISOString()} AND transaction_hash IS NOT NULL AND status <> 'failed'`);
    for (const row of result.rows) {
      const key = lookalikeKey(row);
      byKey.set(key, [...(byKey.get(key) ?? []), new Date(row.created_at)]);
    }
    return byKey;
  }

  /** The sealed wallet secret, or null once destroyed. */
  async sealedSecret(purchaseId: string): Promise<SealedSecret | null> {
    // Read once or twice per purchase: a prepared statement, without the query builder's cost.
    const result = await this.db.$client.query<{ key_id: string; wrapped_key: Buffer | null; ciphertext: Buffer | null }>({
      name: 'wallet_secret_sealed',
      text: 'SELECT key_id, wrapped_key, ciphertext FROM wallet_secrets WHERE purchase_id = $1 AND destroyed_at IS NULL',
      values: [purchaseId],
    });
    const [row] = result.rows;
    if (!row || !row.ciphertext || !row.wrapped_key) return null;
    return { keyId: row.key_id, wrappedKey: row.wrapped_key, ciphertext: row.ciphertext };
  }

  /** `sealedSecret` of many purchases in one query; destroyed secrets are absent. */
  async sealedSecrets(purchaseIds: readonly string[]): Promise<Map<string, SealedSecret>> {
    if (purchaseIds.length === 0) return new Map();
    const rows = await this.db.select().from(walletSecrets).where(inArray(walletSecrets.purchaseId, [...purchaseIds]));
    const sealed = new Map<string, SealedSecret>();
    for (const row of rows) {
      if (!row.destroyedAt && row.ciphertext && row.wrappedKey) sealed.set(row.purchaseId, { keyId: row.keyId, wrappedKey: row.wrappedKey, ciphertext: row.ciphertext });
    }
    return sealed;
  }

  async findMany(ids: string[]): Promise<PurchaseRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(purchases).where(inArray(purchases.id, ids));
  }
}
