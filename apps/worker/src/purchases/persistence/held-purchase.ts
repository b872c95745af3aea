import { assertWorkerMove, ERROR_CATALOGUE, type ErrorCode } from '@starsgate/domain';
import type { Fence, HeldLease, PurchaseChanges, PurchaseRow, SealedSecret } from '@starsgate/db';
import { backoffMs, enqueuePurchases, purchaseJobId } from '@starsgate/platform';
import type { StepDeps } from '../step-deps';

/** The row was claimed or changed by someone else: stop without side effects. */
export class LeaseLostError extends Error {
  constructor(purchaseId: string) {
    super(`lease on purchase ${purchaseId} was lost`);
    this.name = 'LeaseLostError';
  }
}

/** What went wrong; the action shown beside it is always the error catalogue's. */
export interface PurchaseFailure {
  code: ErrorCode;
  message?: string;
  details?: unknown[];
}

/** The `error` jsonb of a failed/reconciliation purchase, as the gateway shows it. */
export function errorBody(failure: PurchaseFailure): {
  code: string;
  message: string;
  action?: string;
  details?: unknown[];
} {
  const definition = ERROR_CATALOGUE[failure.code] as { message: string; action?: string };
  const action = definition.action;
  return {
    code: failure.code,
    message: failure.message ?? definition.message,
    ...(action ? { action } : {}),
    ...(failure.details && failure.details.length > 0 ? { details: failure.details } : {}),
  };
}

/**
 * A purchase row held by this job under its lease. Every write is fenced on (id, version,
 * lease owner); a lost fence raises LeaseLostError so the step stops before any further side
 * effect. Writes that end the job release the lease and enqueue the job of the new version.
 */
export class HeldPurchase {
  constructor(
    private readonly deps: StepDeps,
    private current: PurchaseRow,
    readonly owner: string,
    /** The sealed wallet secret, as read with the claim of a purchase that may sign (`preparing`). */
    readonly sealedSecret: SealedSecret | null = null,
  ) {}

  get row(): PurchaseRow {
    return this.current;
  }

  get fence(): Fence {
    return { id: this.current.id, version: this.current.version, owner: this.owner };
  }

  /** Adopts a row version this lease committed (here or in a batch's statement); a status change is measured. */
  adopt(row: PurchaseRow): void {
    this.deps.transitionMetrics?.changed(this.current, row);
    this.current = row;
  }

  private async write(
    changes: PurchaseChanges,
    options: { reason?: string; data?: unknown; release?: boolean } = {},
  ): Promise<void> {
    const { lost } = await writeAll(this.deps, [this], changes, {
      release: options.release ?? false,
      reason: options.reason,
      data: options.data,
    });
    if (lost) throw new LeaseLostError(this.current.id);
  }

  /** Status change (or a notable same-status step outcome) that keeps the lease. */
  async move(changes: PurchaseChanges, reason: string, data?: unknown): Promise<void> {
    await this.write(
      {
        ...changes,
        ...(changes.status && changes.status !== this.current.status
          ? { stepStartedAt: new Date(this.deps.now()) }
          : {}),
      },
      { reason, data },
    );
  }

  /** Ends this job: release the lease and run the next step after `delayMs` as a new job. */
  async reschedule(delayMs: number, changes: PurchaseChanges = {}, reason?: string, data?: unknown): Promise<void> {
    await rescheduleAll(this.deps, [this], delayMs, changes, reason, data);
  }

  /**
   * Enters the wallet's sender with `changes` (one statement): takes the wallet lease if it is
   * free, owned by `walletLease.owner`, and keeps this purchase held; otherwise ends this job
   * until the lease's holder wakes it (or batches it). No job is enqueued for a parked purchase:
   * it is due after `parkDelayMs`, and should its wake-up be lost (its holder crashed), the
   * sweeper gives it its job then, as it does any live row without one. Enqueuing a fallback job
   * for every park cost a Redis round trip, and dropping it again another, for a case that needs
   * a crash. `lost`: this purchase's fence was lost, and `lease` (if taken anyway) is the
   * caller's to free.
   */
  async enterWalletSender(
    walletLease: { name: string; owner: string; ttlMs: number },
    parkDelayMs: number,
    changes: PurchaseChanges = {},
    reason?: string,
    data?: unknown,
  ): Promise<{ lease: HeldLease | null; lost: boolean }> {
    if (changes.status) assertWorkerMove(this.current.status, changes.status, this.current.mode);
    const delay = Math.max(0, Math.round(parkDelayMs));
    const entered = await this.deps.transitions.enterWalletSender(
      this.fence,
      changes,
      {
        fromStatus: this.current.status,
        ...(reason !== undefined ? { event: { toStatus: changes.status ?? this.current.status, reason, data } } : {}),
      },
      walletLease,
      new Date(this.deps.now() + delay),
    );
    if (!entered.row) return { lease: entered.walletLease, lost: true };
    this.adopt(entered.row);
    return { lease: entered.walletLease, lost: false };
  }

  /** Retry of the current step after a transient failure: attempt + 1, capped backoff. */
  async retry(reason: string, data?: unknown, minDelayMs = 0): Promise<void> {
    const attempt = this.current.attempt + 1;
    const delay = Math.max(minDelayMs, backoffMs(attempt, this.deps.config.retryBaseMs, this.deps.config.retryMaxMs));
    await this.reschedule(delay, { attempt }, reason, { ...(data as object | undefined), attempt, retry_in_ms: delay });
  }

  /** Ends the row as `failed` (or, for a checkout nobody paid in time, `expired`). */
  async fail(
    failure: PurchaseFailure,
    reason: string,
    data?: unknown,
    status: 'failed' | 'expired' = 'failed',
  ): Promise<void> {
    await this.write(
      {
        status,
        error: errorBody(failure),
        completedAt: new Date(this.deps.now()),
        stepStartedAt: new Date(this.deps.now()),
      },
      {
        release: true,
        reason,
        data: { ...(data as object | undefined), code: failure.code, details: failure.details },
      },
    );
  }

  async reconcile(failure: PurchaseFailure, evidence: Record<string, unknown>, reason: string): Promise<void> {
    const merged = { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...evidence };
    await this.write(
      {
        status: 'reconciliation_required',
        error: errorBody(failure),
        evidence: merged,
        stepStartedAt: new Date(this.deps.now()),
      },
      { release: true, reason, data: { code: failure.code, evidence } },
    );
  }

  /** Merges keys into the `evidence` jsonb. */
  evidenceWith(extra: Record<string, unknown>): Record<string, unknown> {
    return { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...extra };
  }
}

export interface BatchWriteOptions {
  /** Recorded as one audit event per member. */
  reason?: string;
  data?: unknown;
  /** Each member's own event data, in member order (instead of `data`). */
  dataPerMember?: readonly unknown[];
  /** Keys merged into each member's own evidence. */
  mergeEvidence?: Record<string, unknown>;
}

/**
 * One fenced statement for many held purchases in the same status (a batch's members). Members
 * whose fence held adopt their new rows; returns those rows and the first member whose fence was lost.
 */
async function writeAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  options: BatchWriteOptions & { release: boolean },
): Promise<{ rows: PurchaseRow[]; lost?: HeldPurchase }> {
  const from = members[0]!.row.status;
  const mode = members[0]!.row.mode;
  if (members.some((member) => member.row.status !== from || member.row.mode !== mode))
    throw new TypeError('a batch write needs members in one status and one mode');
  // Before any write: a move the domain's lifecycle (of the members' mode) does not have is a bug, not an outcome.
  if (changes.status) assertWorkerMove(from, changes.status, mode);
  const rows = await deps.transitions.applyMany(
    members.map((member) => member.fence),
    changes,
    {
      release: options.release,
      fromStatus: from,
      ...(options.mergeEvidence ? { mergeEvidence: options.mergeEvidence } : {}),
      ...(options.reason !== undefined
        ? {
            event: {
              toStatus: changes.status ?? from,
              reason: options.reason,
              data: options.data,
              ...(options.dataPerMember ? { dataPerRow: options.dataPerMember } : {}),
            },
          }
        : {}),
    },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const member of members) {
    const row = byId.get(member.row.id);
    if (row) member.adopt(row);
  }
  return { rows, lost: members.find((member) => !byId.has(member.row.id)) };
}

/** `move` for many held purchases in one status: one statement; they stay held. */
export async function moveAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  reason: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const { lost } = await writeAll(deps, members, changes, { release: false, reason, data, ...options });
  if (lost) throw new LeaseLostError(lost.row.id);
}

/** `complete` for many held purchases in one status: one statement ends them all and destroys their secrets. */
export async function completeAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  reason: string,
  dataPerMember: readonly unknown[],
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const now = new Date(deps.now());
  const { lost } = await writeAll(
    deps,
    members,
    { status: 'completed', completedAt: now, stepStartedAt: now },
    { ...options, release: true, reason, dataPerMember },
  );
  if (lost) throw new LeaseLostError(lost.row.id);
}

/**
 * `reschedule` for many held purchases in one status: one fenced statement writes them all and
 * one Redis round trip enqueues their next jobs. Members whose fence held are written and
 * enqueued; if any fence was lost, LeaseLostError follows.
 */
export async function rescheduleAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  delayMs: number,
  changes: PurchaseChanges = {},
  reason?: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const delay = Math.max(0, Math.round(delayMs));
  const { rows, lost } = await writeAll(
    deps,
    members,
    { ...changes, nextRunAt: new Date(deps.now() + delay) },
    { release: true, reason, data, ...options },
  );
  await enqueueNext(deps, rows, delay);
  if (lost) throw new LeaseLostError(lost.row.id);
}

/**
 * Enqueues the current-version jobs of released rows in one round trip. A failure is only logged:
 * the rows are committed, and the sweeper restores any live row's missing job.
 */
export async function enqueueNext(
  deps: StepDeps,
  rows: ReadonlyArray<Pick<PurchaseRow, 'id' | 'version'>>,
  delayMs = 0,
): Promise<void> {
  try {
    await enqueuePurchases(
      deps.queue,
      rows.map((row) => ({ purchaseId: row.id, version: row.version, delayMs })),
    );
  } catch (error) {
    deps.logger.warn('enqueue failed; the sweeper will restore the jobs', {
      purchase_ids: rows.map((row) => row.id),
      error,
    });
  }
}

/**
 * Rows this job just claimed for a batch had a job of their own, for the version before the claim
 * (a parked purchase's fallback, a wake-up, a next poll): stale now. Dropped rather than left to
 * wake up only to find the row held or moved on; one already running exits at its claim.
 */
export async function dropStaleJobs(
  deps: StepDeps,
  claimed: ReadonlyArray<Pick<PurchaseRow, 'id' | 'version'>>,
): Promise<void> {
  await Promise.all(claimed.map((row) => deps.queue.remove(purchaseJobId(row.id, row.version - 1)).catch(() => 0)));
}
