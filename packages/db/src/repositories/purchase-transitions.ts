import type { Database } from '../database';
import type { PurchaseRow, SignedExternalRow } from '../schema';
import { CLAIM_BATCH_SIBLINGS } from '../sql/claim-batch-siblings';
import { CLAIM_PARKED } from '../sql/claim-parked';
import { CLAIM_PURCHASE } from '../sql/claim-purchase';
import { CLAIM_READY_TO_SEND } from '../sql/claim-ready-to-send';
import { driverValue, fencedUpdateStatement } from '../sql/fenced-update';
import { HEARTBEAT_PURCHASE } from '../sql/heartbeat-purchase';
import { PAID_LOOKALIKES } from '../sql/paid-lookalikes';
import { PARKED_AWAITING_DELIVERY } from '../sql/parked-awaiting-delivery';
import { PARKED_AWAITING_LANDING } from '../sql/parked-awaiting-landing';
import { PARKED_AWAITING_SIGNATURE } from '../sql/parked-awaiting-signature';
import { PERSIST_SIGNED_BATCH } from '../sql/persist-signed-batch';
import { WAKE_NEXT_TO_SEND } from '../sql/wake-next-to-send';
import { claimedFromRaw, type ClaimedPurchase, type RefusedClaim } from './claimed-purchase';
import { fromDriverRow, signedExternalFromDriverRow } from './driver-rows';
import type { HeldLease } from './lease-repository';

export type { ClaimedPurchase, RefusedClaim } from './claimed-purchase';

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
    | 'checkoutTransaction'
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

/** Orders that look alike in Fragment's history: same recipient (case-insensitive), product and quantity. */
export function lookalikeKey(order: { product: string; username: string; amount: number }): string {
  return `${order.username.toLowerCase()}|${order.product}|${order.amount}`;
}

/** A paid look-alike of an order: when it was created and, once it was, completed, and on which Fragment account. */
export interface PaidLookalike {
  createdAt: Date;
  completedAt: Date | null;
  /** The Fragment account it was made on; absent or null when unknown (stored before it was recorded). */
  account?: string | null;
}

/**
 * The look-alikes whose rows may be in one account's history: those made on that account, and
 * those whose account is unknown (counted everywhere, so an old row never vouches for a new order).
 * Without an account (none to scope to), all of them.
 */
export function lookalikesOnAccount<T extends Pick<PaidLookalike, 'account'>>(
  lookalikes: readonly T[],
  account: string | undefined,
): T[] {
  return account === undefined ? [...lookalikes] : lookalikes.filter((l) => !l.account || l.account === account);
}

/**
 * How far back an uncompleted paid look-alike is still expected to be delivered by Fragment. An
 * order created before a purchase but delivered after it adds a history row in that purchase's
 * window, so it must be counted, or its row would vouch for the purchase too.
 */
export const LOOKALIKE_OPEN_LOOKBACK_MS = 24 * 60 * 60_000;

/** Where a delivery check counts from, and how many of our paid look-alikes it must find there. */
export interface LookalikeWindow {
  since: Date;
  count: number;
}

/**
 * The window a history count must cover so that every row in it belongs to a look-alike counted
 * in it. A row is stamped no later than its delivery, which is no later than our completion, so an
 * earlier look-alike that was still open (or completed) at the window's start may have its row in
 * the window: the window then opens at that look-alike's creation (less the clock skew), where its
 * row must lie, and the rule repeats until no earlier look-alike was open at the start (those older
 * than the lookback aside). Every look-alike created since the start is counted.
 */
export function lookalikeWindow(lookalikes: readonly PaidLookalike[], since: Date, skewMs: number): LookalikeWindow {
  const oldest = since.getTime() - LOOKALIKE_OPEN_LOOKBACK_MS;
  let start = since.getTime();
  for (;;) {
    const openAtStart = lookalikes.filter(
      (l) =>
        l.createdAt.getTime() < start &&
        l.createdAt.getTime() >= oldest &&
        (l.completedAt === null || l.completedAt.getTime() >= start),
    );
    if (openAtStart.length === 0) break;
    start = Math.min(...openAtStart.map((l) => l.createdAt.getTime())) - skewMs;
  }
  return { since: new Date(start), count: lookalikes.filter((l) => l.createdAt.getTime() >= start).length };
}

function eventData(event: TransitionEvent | undefined, index: number): string | null {
  const data = event?.dataPerRow ? event.dataPerRow[index] : event?.data;
  return data === undefined ? null : JSON.stringify(data);
}

const FOREIGN_KEY_VIOLATION = '23503';

/**
 * Fenced writes of the purchase state machine (docs/purchase-safety.md, Fenced writes). Every statement is
 * `WHERE id = $id AND version = $v AND lease_owner = $me` and bumps `version`, so a worker whose
 * lease expired (and whose row another worker claimed) changes nothing: zero rows, null result.
 * No network call ever runs inside these transactions.
 */
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
      ...CLAIM_PURCHASE,
      values: [id, owner, leaseMs],
    });
    const [raw] = result.rows;
    if (!raw) return null;
    return raw.claimed_now === true ? claimedFromRaw(raw) : { claimed: false, row: fromDriverRow(raw) };
  }

  /** Extends the holder's lease without bumping the version (heartbeat). */
  async heartbeat(fence: Fence, leaseMs: number): Promise<boolean> {
    const result = await this.db.$client.query({
      ...HEARTBEAT_PURCHASE,
      values: [fence.id, fence.version, fence.owner, leaseMs],
    });
    return result.rowCount === 1;
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
  async signedExternal(batchId: string): Promise<SignedExternalRow | null> {
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
  async signedBatchOf(purchaseId: string): Promise<string | null> {
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
  async claimBatchSiblings(
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

  /**
   * Paid purchases parked in `confirming` until Fragment shows them delivered, that nobody holds,
   * oldest first: what the delivery watch looks at (read only).
   */
  async parkedAwaitingDelivery(limit: number): Promise<ParkedPurchase[]> {
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
  async parkedAwaitingSignature(limit: number): Promise<ParkedCheckout[]> {
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
  async parkedAwaitingLanding(limit: number): Promise<ParkedLanding[]> {
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
  async claimParked(
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

  /**
   * Our paid, not failed purchases of the same product and quantity for the same recipient, and
   * the window a history count must cover for them (`lookalikeWindow`): a history that names the
   * recipient and quantity but not the order can be trusted only when it holds at least `count`
   * matching rows since the window's start.
   */
  async countPaidLookalikes(
    order: Pick<PurchaseRow, 'product' | 'username' | 'amount'>,
    since: Date,
    skewMs: number,
    account?: string,
  ): Promise<LookalikeWindow> {
    const lookalikes = (await this.paidLookalikesSince([order], since)).get(lookalikeKey(order)) ?? [];
    return lookalikeWindow(lookalikesOnAccount(lookalikes, account), since, skewMs);
  }

  /**
   * The paid look-alikes of many orders with one query, by order key (`lookalikeKey`): every one
   * created since a day before `since`, so callers count per purchase with `lookalikeWindow`.
   */
  async paidLookalikesSince(
    orders: ReadonlyArray<Pick<PurchaseRow, 'product' | 'username' | 'amount'>>,
    since: Date,
  ): Promise<Map<string, PaidLookalike[]>> {
    const byKey = new Map<string, PaidLookalike[]>();
    if (orders.length === 0) return byKey;
    const result = await this.db.$client.query<{
      username: string;
      product: string;
      amount: number;
      created_at: Date;
      completed_at: Date | null;
      fragment_account: string | null;
    }>({
      ...PAID_LOOKALIKES,
      values: [
        orders.map((o) => o.username.toLowerCase()),
        orders.map((o) => o.product),
        orders.map((o) => o.amount),
        new Date(since.getTime() - LOOKALIKE_OPEN_LOOKBACK_MS).toISOString(),
      ],
    });
    for (const row of result.rows) {
      const key = lookalikeKey(row);
      const lookalike: PaidLookalike = {
        createdAt: new Date(row.created_at),
        completedAt: row.completed_at === null ? null : new Date(row.completed_at),
        account: row.fragment_account,
      };
      byKey.set(key, [...(byKey.get(key) ?? []), lookalike]);
    }
    return byKey;
  }

  async findMany(ids: string[]): Promise<PurchaseRow[]> {
    if (ids.length === 0) return [];
    const result = await this.db.$client.query<Record<string, unknown>>({
      name: 'purchases_by_ids',
      text: 'SELECT * FROM purchases WHERE id = ANY($1::uuid[])',
      values: [ids],
    });
    return result.rows.map(fromDriverRow);
  }
}
