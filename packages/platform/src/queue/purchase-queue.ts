import { Queue, type ConnectionOptions, type JobsOptions } from 'bullmq';
import IORedis, { type Redis } from 'ioredis';

export const PURCHASE_QUEUE = 'purchases';
export const PURCHASE_JOB = 'advance';

export interface PurchaseJobData {
  purchaseId: string;
}

/**
 * One job id per (purchase, row version): BullMQ ignores an add whose id exists, so duplicate
 * enqueues of the same step collapse, and the next step (a new version) gets a fresh job.
 * Ids must not contain `:`.
 */
export function purchaseJobId(purchaseId: string, version: number): string {
  return `p-${purchaseId}-v${version}`;
}

export const PURCHASE_JOB_OPTIONS: JobsOptions = {
  // Attempts and backoff live in PostgreSQL; BullMQ only dispatches.
  attempts: 1,
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

export function createRedisConnection(url: string, options: { forWorker?: boolean } = {}): Redis {
  return new IORedis(url, {
    // BullMQ workers need blocking commands that never give up; producers fail fast.
    maxRetriesPerRequest: options.forWorker ? null : 3,
    enableReadyCheck: true,
    lazyConnect: false,
  });
}

export function createPurchaseQueue(connection: ConnectionOptions, prefix?: string): Queue<PurchaseJobData> {
  return new Queue<PurchaseJobData>(PURCHASE_QUEUE, { connection, prefix, defaultJobOptions: PURCHASE_JOB_OPTIONS });
}

export async function enqueuePurchase(
  queue: Queue<PurchaseJobData>,
  purchaseId: string,
  version: number,
  delayMs = 0,
): Promise<void> {
  await queue.add(PURCHASE_JOB, { purchaseId }, { jobId: purchaseJobId(purchaseId, version), delay: delayMs > 0 ? delayMs : undefined });
}
