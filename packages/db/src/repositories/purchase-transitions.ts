import type { Database } from '../database';
import type { PurchaseRow } from '../schema';
import { CLAIM_PURCHASE } from '../sql/claim-purchase';
import { driverValue, fencedUpdateStatement } from '../sql/fenced-update';
import { HEARTBEAT_PURCHASE } from '../sql/heartbeat-purchase';
import { claimedFromRaw, type ClaimedPurchase, type RefusedClaim } from './claimed-purchase';
import { fromDriverRow } from './driver-rows';
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

function eventData(event: TransitionEvent | undefined, index: number): string | null {
  const data = event?.dataPerRow ? event.dataPerRow[index] : event?.data;
  return data === undefined ? null : JSON.stringify(data);
}

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
