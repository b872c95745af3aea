import type { HeldPurchase } from '../persistence/held-purchase';
import { decide } from '../persistence/purchase-decision';
import { applyDecision } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';

/**
 * The dispatcher's own moves, for a row of any status: one it has no step for is looked at again
 * after RETRY_MAX_MS, and one whose step raised an unexpected error is retried with backoff.
 */
export async function unknownStatusStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  await applyDecision(
    deps,
    purchase,
    decide.reschedule(deps.config.retryMaxMs, {}, `unknown status ${purchase.row.status}`),
  );
}

/** A step raised an unexpected error: the same step again after a backoff. */
export async function retryAfterStepError(deps: StepDeps, purchase: HeldPurchase, error: unknown): Promise<void> {
  await applyDecision(
    deps,
    purchase,
    decide.retry(deps, purchase.row, 'step raised an unexpected error', {
      error: error instanceof Error ? error.message : String(error),
    }),
  );
}
