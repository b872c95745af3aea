import { and, eq, inArray, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { purchases, signedExternals, type PurchaseRow, type SignedExternalRow } from '../schema';
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

const SEALED_SECRET_COLUMNS =
  's.key_id AS sealed_key_id, s.wrapped_key AS sealed_wrapped_key, s.ciphertext AS sealed_ciphertext';

/** A claimed row, with its sealed wallet secret when the claim read it. */
export interface ClaimedPurchase {
  claimed: true;
  row: PurchaseRow;
  /** Read with claims of `preparing` purchases (the steps that derive keys and sign); null otherwise or once destroyed. */
  sealedSecret: SealedSecret | null;
}

/** A claim that failed: the row as the claim found it (held, not due, or terminal). */
export interface RefusedClaim {
  claimed: false;
  row: PurchaseRow;
}

function claimedFromRaw(raw: Record<string, unknown>): ClaimedPurchase {
  const wrappedKey = raw.sealed_wrapped_key as Buffer | null;
  const ciphertext = raw.sealed_ciphertext as Buffer | null;
  return {
    claimed: true,
    row: fromDriverRow(raw),
    sealedSecret: wrappedKey && ciphertext ? { keyId: raw.sealed_key_id as string, wrappedKey, ciphertext } : null,
  };
}

// The hottest statement of the worker: a named prepared statement, parsed and planned once per
// connection. A queued purchase is moved to `preparing` by its claim (with its audit event), so
// starting a purchase costs one round trip; a claim that fails answers with the row as it found
// it (locked, so as of the latest commit), so its job can tell early from stale without asking again.
const CLAIM_SQL = `
  WITH before AS (
    SELECT * FROM purchases WHERE id = $1 FOR UPDATE
  ),
  claimed AS (
    UPDATE purchases p SET lease_owner = $2, lease_expires_at = now() + $3 * interval '1 millisecond', version = p.version + 1, updated_at = now(),
      status = CASE WHEN before.status = 'queued' THEN 'preparing' ELSE p.status END,
      step_started_at = CASE WHEN before.status = 'queued' THEN now() ELSE p.step_started_at END
    FROM before
    WHERE p.id = before.id AND p.next_run_at <= now() AND p.status NOT IN ('completed', 'failed', 'reconciliation_required')
      AND (p.lease_owner IS NULL OR p.lease_expires_at < now())
    RETURNING p.*, before.status AS from_status
  ),
  started AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason)
    SELECT id, from_status, status, version, lease_owner, 'preparing started' FROM claimed WHERE from_status = 'queued'
  )
  SELECT claimed.*, true AS claimed_now, ${SEALED_SECRET_COLUMNS} FROM claimed
  LEFT JOIN wallet_secrets s ON s.purchase_id = claimed.id AND s.destroyed_at IS NULL AND claimed.status = 'preparing'
  UNION ALL
  SELECT before.*, before.status, false, NULL, NULL, NULL FROM before WHERE NOT EXISTS (SELECT 1 FROM claimed)`;

// Claims the oldest purchases of a wallet that wait to be sent and that nobody holds, with their
// sealed secrets: the extra members of a sender's batch, in one statement.
const CLAIM_READY_TO_SEND_SQL = `
  WITH ready AS (
    SELECT id FROM purchases
    WHERE wallet_address = $1 AND status = 'preparing' AND payment_request IS NOT NULL AND batch_id IS NULL AND id <> $2
      AND (lease_owner IS NULL OR lease_expires_at < now())
    ORDER BY created_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED
  ),
  claimed AS (
    UPDATE purchases p SET lease_owner = $4, lease_expires_at = now() + $5 * interval '1 millisecond', version = p.version + 1, updated_at = now()
    FROM ready WHERE p.id = ready.id
    RETURNING p.*
  )
  SELECT claimed.*, ${SEALED_SECRET_COLUMNS} FROM claimed
  LEFT JOIN wallet_secrets s ON s.purchase_id = claimed.id AND s.destroyed_at IS NULL
  ORDER BY claimed.created_at`;

// The signed external and its members, in one statement: the wallet lease is extended (only if
// still ours), then every member moved to `sending` (only if the lease was), then the external
// stored only if every member was. purchases.batch_id references signed_externals, so a member
// written without its external fails the whole statement: all or nothing.
const PERSIST_SIGNED_BATCH_SQL = `
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
      evidence = member.evidence, version = p.version + 1, updated_at = now()
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
  SELECT * FROM updated`;

const FOREIGN_KEY_VIOLATION = '23503';

export class PurchaseTransitions {
  constructor(private readonly db: Database) {}

  /**
   * Claims a due, unleased live purchase (a queued one starts `preparing`). The claim bumps the
   * version, so whoever held an older one is fenced out. A `preparing` purchase comes with its
   * sealed secret, which its step needs, so that costs no second round trip. Refused (a terminal
   * row, a backoff not yet due, or another live holder): the row as found. Null: no such purchase.
   */
  async claim(id: string, owner: string, leaseMs: number): Promise<ClaimedPurchase | RefusedClaim | null> {
    const result = await this.db.$client.query<Record<string, unknown>>({
      name: 'purchase_claim',
      text: CLAIM_SQL,
      values: [id, owner, leaseMs],
    });
    const [raw] = result.rows;
    if (!raw) return null;
    return raw.claimed_now === true ? claimedFromRaw(raw) : { claimed: false, row: fromDriverRow(raw) };
  }

  /** Extends the holder's lease without bumping the version (heartbeat). */
  async heartbeat(fence: Fence, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .update(purchases)
      .set({ leaseExpiresAt: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(
        and(eq(purchases.id, fence.id), eq(purchases.version, fence.version), eq(purchases.leaseOwner, fence.owner)),
      )
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
   * A fenced write to a purchase nobody holds, as `apply` writes a held one (event, secret
   * destroyed at a terminal status, the outbox trigger): an operator's resolution of a
   * reconciliation case or the evidence collector's. Fenced on the version read, so nothing
   * changes (null) if the row moved on meanwhile. `actor` is recorded on the audit event.
   */
  async applyUnheld(
    fence: { id: string; version: number },
    actor: string,
    changes: PurchaseChanges,
    options: { event?: TransitionEvent; fromStatus?: string; mergeEvidence?: Record<string, unknown> } = {},
  ): Promise<PurchaseRow | null> {
    const [raw] = await this.fencedUpdate([{ ...fence, owner: actor }], changes, {
      ...options,
      release: true,
      unheld: true,
    });
    return raw ? fromDriverRow(raw) : null;
  }

  /**
   * `apply` for many rows held under their own fences (a batch's members), with the same changes
   * and event, in one statement; `mergeEvidence` adds keys to each row's own evidence. Returns the
   * rows whose fence held; the caller compares counts.
   */
  async applyMany(
    fences: readonly Fence[],
    changes: PurchaseChanges,
    options: {
      event?: TransitionEvent;
      release?: boolean;
      fromStatus?: string;
      actor?: string;
      mergeEvidence?: Record<string, unknown>;
    } = {},
  ): Promise<PurchaseRow[]> {
    return (await this.fencedUpdate(fences, changes, options)).map(fromDriverRow);
  }

  /**
   * A held purchase whose payment request waits to be signed enters its wallet's sender, with
   * `changes`, in one statement: if the wallet lease is free it takes it (a fresh fence, owned by
   * `walletLease.owner`) and the purchase stays held; otherwise the purchase is released, due at
   * `parkUntil`, for the lease's holder to wake. The lease row is locked either way, so a holder
   * freeing the wallet meanwhile cannot miss the parked row. `row` is null when the purchase's
   * fence was lost; `walletLease` is then still reported if taken, for the caller to free.
   */
  async enterWalletSender(
    fence: Fence,
    changes: PurchaseChanges,
    options: { event?: TransitionEvent; fromStatus?: string },
    walletLease: { name: string; owner: string; ttlMs: number },
    parkUntil: Date,
  ): Promise<{ row: PurchaseRow | null; walletLease: HeldLease | null }> {
    const [raw] = await this.fencedUpdate([fence], changes, {
      ...options,
      walletSender: { ...walletLease, parkUntil },
    });
    const leaseFence = raw?.wallet_lease_fence;
    return {
      row: raw?.id ? fromDriverRow(raw) : null,
      walletLease:
        leaseFence === null || leaseFence === undefined
          ? null
          : { name: walletLease.name, owner: walletLease.owner, fence: Number(leaseFence) },
    };
  }

  private async fencedUpdate(
    fences: readonly Fence[],
    changes: PurchaseChanges,
    options: {
      event?: TransitionEvent;
      release?: boolean;
      fromStatus?: string;
      actor?: string;
      mergeEvidence?: Record<string, unknown>;
      walletSender?: { name: string; owner: string; ttlMs: number; parkUntil: Date };
      unheld?: boolean;
    },
  ): Promise<Array<Record<string, unknown>>> {
    if (fences.length === 0) return [];
    const keys = (Object.keys(changes) as Array<keyof PurchaseChanges>).filter((key) => changes[key] !== undefined);
    const many = fences.length > 1;
    const statement = fencedUpdateStatement({
      keys,
      release: options.release ?? false,
      mergeEvidence: options.mergeEvidence !== undefined,
      many,
      enterWalletSender: options.walletSender !== undefined,
      unheld: options.unheld ?? false,
    });
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
      ...(options.walletSender
        ? [
            options.walletSender.name,
            options.walletSender.owner,
            options.walletSender.ttlMs,
            options.walletSender.parkUntil.toISOString(),
          ]
        : []),
    ];
    const result = await this.db.$client.query<Record<string, unknown>>({
      name: statement.name,
      text: statement.text,
      values,
    });
    return result.rows;
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
    if (external.messageCount !== members.length)
      throw new TypeError('a signed external pays each of its members once');
    let rows: Array<Record<string, unknown>>;
    try {
      ({ rows } = await this.db.$client.query<Record<string, unknown>>({
        name: 'persist_signed_batch',
        text: PERSIST_SIGNED_BATCH_SQL,
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
  async signedExternal(batchId: string): Promise<SignedExternalRow | null> {
    const [row] = await this.db.select().from(signedExternals).where(eq(signedExternals.batchId, batchId));
    return row ?? null;
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
      name: 'purchase_claim_ready_to_send',
      text: CLAIM_READY_TO_SEND_SQL,
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

  /**
   * Claims the other members of a batch that wait in `confirming` and that nobody holds, so the
   * member that found the batch's transaction settles them with it: `paid` false takes those whose
   * payment is not yet recorded, true those waiting for delivery. Only GRAM purchases: a USDT
   * payment is judged by its own jetton transfer.
   */
  async claimBatchSiblings(
    batchId: string,
    excludeId: string,
    paid: boolean,
    owner: string,
    leaseMs: number,
  ): Promise<PurchaseRow[]> {
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
  async paidLookalikesSince(
    orders: ReadonlyArray<Pick<PurchaseRow, 'product' | 'username' | 'amount'>>,
    since: Date,
  ): Promise<Map<string, Date[]>> {
    const byKey = new Map<string, Date[]>();
    if (orders.length === 0) return byKey;
    const result = await this.db.execute<{
      username: string;
      product: string;
      amount: number;
      created_at: string | Date;
    }>(sql`
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

  async findMany(ids: string[]): Promise<PurchaseRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(purchases).where(inArray(purchases.id, ids));
  }
}
