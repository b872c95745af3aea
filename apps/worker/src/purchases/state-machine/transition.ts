import { ERROR_CATALOGUE, type ErrorCode } from '@starsgate/domain';
import type { Fence, PurchaseChanges, PurchaseRow } from '@starsgate/db';
import { enqueuePurchase } from '@starsgate/platform';
import type { StepDeps } from './step-deps';

/** The row was claimed or changed by someone else: stop without side effects. */
export class LeaseLostError extends Error {
  constructor(purchaseId: string) {
    super(`lease on purchase ${purchaseId} was lost`);
    this.name = 'LeaseLostError';
  }
}

export interface PurchaseFailure {
  code: ErrorCode;
  message?: string;
  action?: string;
  details?: unknown[];
}

/** The `error` jsonb of a failed/reconciliation purchase, as the gateway shows it. */
export function errorBody(failure: PurchaseFailure): { code: string; message: string; action?: string; details?: unknown[] } {
  const definition = ERROR_CATALOGUE[failure.code] as { message: string; action?: string };
  const action = failure.action ?? definition.action;
  return {
    code: failure.code,
    message: failure.message ?? definition.message,
    ...(action ? { action } : {}),
    ...(failure.details && failure.details.length > 0 ? { details: failure.details } : {}),
  };
}

/** Capped exponential backoff with 50–100 % jitter. */
export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling * (0.5 + Math.random() * 0.5));
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
  ) {}

  get row(): PurchaseRow {
    return this.current;
  }

  get fence(): Fence {
    return { id: this.current.id, version: this.current.version, owner: this.owner };
  }

  /** Adopts a row version written elsewhere under this same lease (batch persistence). */
  adopt(row: PurchaseRow): void {
    this.current = row;
  }

  private async write(changes: PurchaseChanges, options: { reason?: string; data?: unknown; release?: boolean } = {}): Promise<PurchaseRow> {
    const from = this.current.status;
    const to = changes.status ?? from;
    const row = await this.deps.transitions.apply(this.fence, changes, {
      ...(options.reason !== undefined ? { event: { toStatus: to, reason: options.reason, data: options.data } } : {}),
      fromStatus: from,
      release: options.release ?? false,
    });
    if (!row) throw new LeaseLostError(this.current.id);
    this.current = row;
    return row;
  }

  /** Status change (or a notable same-status step outcome) that keeps the lease. */
  async move(changes: PurchaseChanges, reason: string, data?: unknown): Promise<void> {
    await this.write({ ...changes, ...(changes.status && changes.status !== this.current.status ? { stepStartedAt: new Date(this.deps.now()) } : {}) }, { reason, data });
  }

  /** Silent bookkeeping write (no event). */
  async save(changes: PurchaseChanges): Promise<void> {
    await this.write(changes);
  }

  /** Ends this job: release the lease and run the next step after `delayMs` as a new job. */
  async reschedule(delayMs: number, changes: PurchaseChanges = {}, reason?: string, data?: unknown): Promise<void> {
    const delay = Math.max(0, Math.round(delayMs));
    const row = await this.write({ ...changes, nextRunAt: new Date(this.deps.now() + delay) }, { release: true, ...(reason !== undefined ? { reason, data } : {}) });
    await this.enqueue(row, delay);
  }

  /** Retry of the current step after a transient failure: attempt + 1, capped backoff. */
  async retry(reason: string, data?: unknown, minDelayMs = 0): Promise<void> {
    const attempt = this.current.attempt + 1;
    const delay = Math.max(minDelayMs, backoffMs(attempt, this.deps.config.retryBaseMs, this.deps.config.retryMaxMs));
    await this.reschedule(delay, { attempt }, reason, { ...(data as object | undefined), attempt, retry_in_ms: delay });
  }

  async fail(failure: PurchaseFailure, reason: string, data?: unknown): Promise<void> {
    await this.write(
      { status: 'failed', error: errorBody(failure), completedAt: new Date(this.deps.now()), stepStartedAt: new Date(this.deps.now()) },
      { release: true, reason, data: { ...(data as object | undefined), code: failure.code, details: failure.details } },
    );
  }

  async reconcile(failure: PurchaseFailure, evidence: Record<string, unknown>, reason: string): Promise<void> {
    const merged = { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...evidence };
    await this.write(
      { status: 'reconciliation_required', error: errorBody(failure), evidence: merged, stepStartedAt: new Date(this.deps.now()) },
      { release: true, reason, data: { code: failure.code, evidence } },
    );
  }

  async complete(changes: PurchaseChanges, reason: string, data?: unknown): Promise<void> {
    await this.write(
      { ...changes, status: 'completed', completedAt: new Date(this.deps.now()), stepStartedAt: new Date(this.deps.now()) },
      { release: true, reason, data },
    );
  }

  /** Merges keys into the `evidence` jsonb. */
  evidenceWith(extra: Record<string, unknown>): Record<string, unknown> {
    return { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...extra };
  }

  private async enqueue(row: PurchaseRow, delayMs: number): Promise<void> {
    try {
      await enqueuePurchase(this.deps.queue, row.id, row.version, delayMs);
    } catch (error) {
      this.deps.logger.warn('enqueue failed; the sweeper will restore the job', { purchase_id: row.id, error });
    }
  }
}

/** Enqueue the current-version job of a row released elsewhere (batch members). */
export async function enqueueRow(deps: StepDeps, row: Pick<PurchaseRow, 'id' | 'version'>, delayMs = 0): Promise<void> {
  try {
    await enqueuePurchase(deps.queue, row.id, row.version, delayMs);
  } catch (error) {
    deps.logger.warn('enqueue failed; the sweeper will restore the job', { purchase_id: row.id, error });
  }
}
