import type { Job } from 'bullmq';
import type { PurchaseRepository } from '@starsgate/db';
import type { Logger, PurchaseJobData } from '@starsgate/platform';

export interface PurchaseProcessorDeps {
  purchases: PurchaseRepository;
  logger: Logger;
}

/**
 * Receives a purchase job. The job carries only the id: the row is read from PostgreSQL,
 * which stays the source of truth whatever Redis holds.
 */
export function createPurchaseProcessor(deps: PurchaseProcessorDeps) {
  return async (job: Job<PurchaseJobData>): Promise<void> => {
    const purchase = await deps.purchases.findById(job.data.purchaseId);
    if (!purchase) {
      deps.logger.warn('job for an unknown purchase', { job_id: job.id, purchase_id: job.data.purchaseId });
      return;
    }
    deps.logger.info('purchase job received', { job_id: job.id, purchase_id: purchase.id, status: purchase.status, version: purchase.version });
  };
}
