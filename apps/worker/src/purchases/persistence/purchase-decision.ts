import { errorBody, type PurchaseFailure } from '@starsgate/domain';
import type { PurchaseChanges, PurchaseRow } from '@starsgate/db';
import { backoffMs } from '@starsgate/platform';
import type { StepDeps } from '../step-deps';

/**
 * What a step decided for the purchases it holds: the changes (a status change among them), the
 * audit event, and whether the job ends. Built by the step (or a helper it asked), applied by the
 * one writer (purchase-writer.ts), which never decides anything itself.
 */
export interface PurchaseDecision {
  changes: PurchaseChanges;
  /** Recorded as one audit event per purchase; none without a reason. */
  reason?: string;
  data?: unknown;
  /** Each purchase's own event data, in order (instead of `data`). */
  dataPerMember?: readonly unknown[];
  /** Keys merged into each purchase's own evidence. */
  mergeEvidence?: Record<string, unknown>;
  /** Ends the job: the lease is released. */
  release: boolean;
  /** With `release`: the purchase's next job runs after this long (its `next_run_at`, its job enqueued). */
  delayMs?: number;
}

/** A decision for some of the purchases a step holds. */
export interface DecidedFor<Held> {
  held: Held | readonly Held[];
  decision: PurchaseDecision;
}

type Clock = Pick<StepDeps, 'now'>;
type Extras = Pick<PurchaseDecision, 'dataPerMember' | 'mergeEvidence'>;

/**
 * A status change (or a notable same-status step outcome) that keeps the lease. Moved out of
 * `row`'s status, the new status starts its step's clock; `row` null: a batch's changes set
 * `stepStartedAt` themselves.
 */
function move(
  deps: Clock,
  row: Pick<PurchaseRow, 'status'> | null,
  changes: PurchaseChanges,
  reason: string,
  data?: unknown,
  extras: Extras = {},
): PurchaseDecision {
  const startsStep = row !== null && changes.status !== undefined && changes.status !== row.status;
  return {
    changes: { ...changes, ...(startsStep ? { stepStartedAt: new Date(deps.now()) } : {}) },
    reason,
    data,
    ...extras,
    release: false,
  };
}

/** Ends the job: release the lease and run the next step after `delayMs` as a new job. */
function reschedule(
  delayMs: number,
  changes: PurchaseChanges = {},
  reason?: string,
  data?: unknown,
  extras: Extras = {},
): PurchaseDecision {
  return { changes, reason, data, ...extras, release: true, delayMs };
}

/** Retry of the current step after a transient failure: attempt + 1, capped backoff. */
function retry(
  deps: Pick<StepDeps, 'config'>,
  row: Pick<PurchaseRow, 'attempt'>,
  reason: string,
  data?: unknown,
  minDelayMs = 0,
): PurchaseDecision {
  const attempt = row.attempt + 1;
  const delay = Math.max(minDelayMs, backoffMs(attempt, deps.config.retryBaseMs, deps.config.retryMaxMs));
  return reschedule(delay, { attempt }, reason, { ...(data as object | undefined), attempt, retry_in_ms: delay });
}

/** Ends the row as `failed` (or, for a checkout nobody paid in time, `expired`). */
function fail(
  deps: Clock,
  failure: PurchaseFailure,
  reason: string,
  data?: unknown,
  status: 'failed' | 'expired' = 'failed',
): PurchaseDecision {
  return {
    changes: {
      status,
      error: errorBody(failure),
      completedAt: new Date(deps.now()),
      stepStartedAt: new Date(deps.now()),
    },
    release: true,
    reason,
    data: { ...(data as object | undefined), code: failure.code, details: failure.details },
  };
}

/** Ends the job with the row in `reconciliation_required`, `evidence` merged into its own. */
function reconcile(
  deps: Clock,
  row: Pick<PurchaseRow, 'evidence'>,
  failure: PurchaseFailure,
  evidence: Record<string, unknown>,
  reason: string,
): PurchaseDecision {
  return {
    changes: {
      status: 'reconciliation_required',
      error: errorBody(failure),
      evidence: { ...(row.evidence ?? {}), ...evidence },
      stepStartedAt: new Date(deps.now()),
    },
    release: true,
    reason,
    data: { code: failure.code, evidence },
  };
}

/** Ends the rows as `completed` (their secrets are destroyed with the same statement). */
function complete(
  deps: Clock,
  reason: string,
  dataPerMember: readonly unknown[],
  extras: Extras = {},
): PurchaseDecision {
  const now = new Date(deps.now());
  return {
    changes: { status: 'completed', completedAt: now, stepStartedAt: now },
    ...extras,
    release: true,
    reason,
    dataPerMember,
  };
}

/** The decisions a step may take; purchase-writer.ts applies them. */
export const decide = { move, reschedule, retry, fail, reconcile, complete };
