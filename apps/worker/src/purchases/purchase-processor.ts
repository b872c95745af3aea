import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job } from 'bullmq';
import { isTerminalStatus, type PurchaseStatus, type WorkerStatus } from '@starsgate/domain';
import { isPurchaseLeaseFree, type ClaimedPurchase, type PurchaseRow } from '@starsgate/db';
import {
  addLogContext,
  contextFromCarrier,
  inSpan,
  purchaseJobVersion,
  withLogContext,
  type PurchaseJobData,
} from '@starsgate/platform';
import { crashAt } from './crash-points';
import type { NextStep } from './next-step';
import type { StepDeps } from './step-deps';
import { retryAfterStepError, unknownStatusStep } from './steps/any-status';
import { awaitingSignatureStep } from './steps/awaiting-signature';
import { awaitDeliveries, confirmingStep } from './steps/confirming';
import { preparingStep } from './steps/preparing';
import { broadcastSignedBatch, sendingStep } from './steps/sending';
import { confirmBroadcastBatch, submittedStep } from './steps/submitted';
import { HeldPurchase } from './persistence/held-purchase';
import { LeaseLostError } from './persistence/lease-lost-error';

export type { StepDeps as PurchaseProcessorDeps } from './step-deps';

/** How logs name a row: a checkout by its public `checkout_id`, a purchase by its `purchase_id`. */
function rowIds(row: Pick<PurchaseRow, 'id' | 'mode'>): { purchase_id: string } | { checkout_id: string } {
  return row.mode === 'client_signed' ? { checkout_id: row.id } : { purchase_id: row.id };
}

/**
 * The state machine's dispatcher: the step of the claimed row's status runs (each status has
 * its file in steps/, the only place that handles it). A step that ends holding purchases which
 * moved on hands them back, and the step of their new status runs them in the same job. Each
 * step ends by releasing, by a terminal write, or by handing on. The claim itself moves a
 * `queued` purchase to `preparing`.
 */
async function advance(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  let next = await runStatusStep(deps, purchase);
  while (next) next = await continueWith(deps, next);
}

type Step = (deps: StepDeps, purchase: HeldPurchase) => Promise<NextStep | undefined>;

/** A step that hands nothing on. */
const ending =
  (step: (deps: StepDeps, purchase: HeldPurchase) => Promise<void>): Step =>
  async (deps, purchase) => {
    await step(deps, purchase);
    return undefined;
  };

/**
 * The step of every status the lifecycles (packages/domain) give the worker moves out of, but
 * `queued`, which the claim itself moves: a worker status without a step does not compile.
 */
const STATUS_STEPS = {
  preparing: preparingStep,
  awaiting_signature: ending(awaitingSignatureStep),
  sending: ending(sendingStep),
  submitted: ending(submittedStep),
  confirming: ending(confirmingStep),
} satisfies Record<Exclude<WorkerStatus, 'queued'>, Step>;

/** A claimed row: the step of its status. */
async function runStatusStep(deps: StepDeps, purchase: HeldPurchase): Promise<NextStep | undefined> {
  const step = (STATUS_STEPS as Partial<Record<PurchaseStatus, Step>>)[purchase.row.status];
  if (step) return step(deps, purchase);
  await unknownStatusStep(deps, purchase);
  return undefined;
}

/** Purchases a step handed on, still held by this job: the step of their new status, with its handoff. */
async function continueWith(deps: StepDeps, next: NextStep): Promise<NextStep | undefined> {
  switch (next.status) {
    case 'sending':
      return broadcastSignedBatch(deps, next.held, next.handoff);
    case 'submitted':
      return confirmBroadcastBatch(deps, next.held, next.handoff);
    case 'confirming':
      await awaitDeliveries(deps, next.held);
      return undefined;
  }
}

/** A refused claim is retried at most this often (a job that came early, then a row still held). */
const CLAIM_TRIES = 5;
/** A job that arrives at most this early (Redis and PostgreSQL clocks apart) waits and claims again. */
const MAX_EARLY_WAIT_MS = 2_000;
/** Added to that wait so the next claim finds the row due. */
const EARLY_WAIT_SLACK_MS = 5;

/**
 * Claims the purchase in one statement when it is due and unheld; a job that loses the claim
 * (the row is held, terminal, or not yet due) exits. Any job of a due row may run its step, which
 * the row's state decides, fenced by the claim's new version. A refused claim answers with the
 * row: a job that arrives a few ms before `next_run_at` (clock skew between Redis and
 * PostgreSQL) waits briefly and claims again, so it does not fall back to the sweeper; a job
 * whose version the row has moved past is stale (whoever moved it enqueued its own) and exits.
 */
async function claim(
  deps: StepDeps,
  id: string,
  owner: string,
  jobVersion: number | undefined,
): Promise<ClaimedPurchase | null> {
  for (let tries = 0; tries < CLAIM_TRIES; tries += 1) {
    const attempt = await deps.transitions.claim(id, owner, deps.config.leaseMs);
    if (!attempt) return null;
    if (attempt.claimed) return attempt;
    const { row } = attempt;
    if (isTerminalStatus(row.status)) return null;
    if (jobVersion !== undefined && row.version !== jobVersion) return null;
    const early = row.nextRunAt.getTime() - deps.now();
    if (!isPurchaseLeaseFree(row, deps.now()) || early <= 0 || early > MAX_EARLY_WAIT_MS) return null;
    await sleep(early + EARLY_WAIT_SLACK_MS);
  }
  return null;
}

/**
 * The BullMQ processor. The job carries only the id; PostgreSQL decides what happens, fenced
 * by version and lease, so duplicate, stale and redelivered jobs are harmless.
 */
export function createPurchaseProcessor(deps: StepDeps) {
  const run = processJob(deps);
  // One span per job, a child of whoever enqueued it (the POST, or the job before): a purchase from
  // intake to its final status is one trace. Its log lines carry the request id that created it.
  return (job: Job<PurchaseJobData>): Promise<void> =>
    withLogContext({}, () =>
      inSpan(
        'purchase.job',
        { 'starsgate.purchase_id': job.data.purchaseId, 'messaging.message.id': job.id ?? '' },
        (span) =>
          run(job, (row) => {
            span.setAttributes({
              'starsgate.status': row.status,
              'starsgate.mode': row.mode,
              ...(row.requestId ? { 'starsgate.request_id': row.requestId } : {}),
            });
            addLogContext({ ...(row.requestId ? { request_id: row.requestId } : {}), ...rowIds(row) });
          }),
        contextFromCarrier(job.data.trace),
      ),
    );
}

function processJob(deps: StepDeps) {
  return async (job: Job<PurchaseJobData>, onClaimed: (row: PurchaseRow) => void): Promise<void> => {
    const owner = `${deps.workerId}:${randomUUID().slice(0, 8)}`;
    const claimed = await claim(deps, job.data.purchaseId, owner, purchaseJobVersion(job.id));
    if (!claimed) return;
    onClaimed(claimed.row);
    deps.transitionMetrics?.claimed(claimed.row);
    crashAt(deps.config, 'after_claim');
    const purchase = new HeldPurchase(deps, claimed.row, owner, claimed.sealedSecret);
    const heartbeat = setInterval(
      () => {
        deps.transitions.heartbeat(purchase.fence, deps.config.leaseMs).catch(() => undefined);
      },
      Math.max(250, Math.floor(deps.config.leaseMs / 3)),
    );
    try {
      await advance(deps, purchase);
    } catch (error) {
      if (error instanceof LeaseLostError) {
        deps.logger.warn('lease lost; stopping without side effects', rowIds(purchase.row));
        return;
      }
      deps.logger.error('purchase step failed', { ...rowIds(purchase.row), status: purchase.row.status, error });
      await retryAfterStepError(deps, purchase, error).catch((retryError: unknown) => {
        deps.logger.warn('could not reschedule after an error; the sweeper will', {
          ...rowIds(purchase.row),
          error: retryError,
        });
      });
    } finally {
      clearInterval(heartbeat);
    }
  };
}
