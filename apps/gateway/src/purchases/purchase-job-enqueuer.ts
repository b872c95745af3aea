import type { Queue } from 'bullmq';
import { enqueuePurchases, type PurchaseJobData } from '@starsgate/platform';
import { MicroBatcher } from '../batching/micro-batcher';

/** Jobs of purchases accepted together are added with one BullMQ addBulk (one Redis round trip). */
export class PurchaseJobEnqueuer {
  private readonly batcher: MicroBatcher<{ purchaseId: string; version: number }, void>;

  constructor(queue: Queue<PurchaseJobData>, options = { maxBatchSize: 256, maxInFlight: 4 }) {
    this.batcher = new MicroBatcher<{ purchaseId: string; version: number }, void>(async (jobs) => {
      await enqueuePurchases(queue, jobs, { newPurchase: true });
      return jobs.map(() => ({ ok: true as const, value: undefined }));
    }, options);
  }

  enqueue(purchaseId: string, version: number): Promise<void> {
    return this.batcher.submit({ purchaseId, version });
  }
}
