import { assertWorkerMove, errorBody, type PurchaseFailure } from '@starsgate/domain';
import type { Fence, HeldLease, PurchaseChanges, PurchaseRow, SealedSecret } from '@starsgate/db';
import { backoffMs } from '@starsgate/platform';
import type { StepDeps } from '../step-deps';
import { rescheduleAll, writeAll } from './batch-writes';
import { LeaseLostError } from './lease-lost-error';

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
