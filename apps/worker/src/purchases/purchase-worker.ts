import { Worker, type ConnectionOptions, type Job } from 'bullmq';
import type { FragmentSessionPool } from '@starsgate/fragment';
import { PURCHASE_QUEUE, type Logger, type PurchaseJobData } from '@starsgate/platform';

export interface PurchaseWorkerOptions {
  connection: ConnectionOptions;
  prefix?: string;
  concurrency: number;
  /** BullMQ's job lock and stall check. */
  jobLockMs: number;
  processor: (job: Job<PurchaseJobData>) => Promise<void>;
  fragment: FragmentSessionPool;
  logger: Logger;
  /** False: connected but taking no jobs until `worker.run()`. */
  autorun?: boolean;
}

/**
 * The BullMQ worker that runs purchase jobs, as the worker process and the tests start it. It
 * only dispatches: a job of a killed worker is handed out again after `jobLockMs`, and PostgreSQL
 * fences it. Failed jobs and Redis errors (a restart, a flush mid-job) are logged, never thrown.
 * The Fragment sessions warm up meanwhile; `warm` resolves once they have, a dead login logged.
 */
export function startPurchaseWorker(options: PurchaseWorkerOptions): {
  worker: Worker<PurchaseJobData>;
  warm: Promise<void>;
} {
  const { logger } = options;
  const warm = options.fragment.warmUp().then((sessions) => {
    for (const { sessionId, error } of sessions) {
      if (error) logger.warn('fragment session not usable at start', { session: sessionId, error: error.message });
    }
  });
  const worker = new Worker<PurchaseJobData>(PURCHASE_QUEUE, options.processor, {
    connection: options.connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    lockDuration: options.jobLockMs,
    stalledInterval: options.jobLockMs,
    autorun: options.autorun ?? true,
  });
  worker.on('failed', (job, error) => logger.error('purchase job failed', { job_id: job?.id, error }));
  worker.on('error', (error) => logger.error('worker error', { error }));
  return { worker, warm };
}
