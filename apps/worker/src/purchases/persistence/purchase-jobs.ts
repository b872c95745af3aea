import type { PurchaseRow } from '@starsgate/db';
import { enqueuePurchases, purchaseJobId } from '@starsgate/platform';
import type { StepDeps } from '../step-deps';

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
