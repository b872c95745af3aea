import type { Queue } from 'bullmq';
import {
  currentTraceCarrier,
  enqueuePurchases,
  type Logger,
  type PurchaseJobData,
  type TraceCarrier,
} from '@starsgate/platform';
import { MicroBatcher } from '../batching/micro-batcher';

/** Jobs of purchases accepted together are added with one BullMQ addBulk (one Redis round trip). */
export class PurchaseJobEnqueuer {
  private readonly batcher: MicroBatcher<{ purchaseId: string; version: number; trace?: TraceCarrier }, void>;

  constructor(queue: Queue<PurchaseJobData>, options = { maxBatchSize: 256, maxInFlight: 4 }) {
    this.batcher = new MicroBatcher<{ purchaseId: string; version: number; trace?: TraceCarrier }, void>(
      async (jobs) => {
        await enqueuePurchases(queue, jobs, { newPurchase: true });
        return jobs.map(() => ({ ok: true as const, value: undefined }));
      },
      options,
    );
  }

  /** The request's trace context is taken now: the batch is added later, outside the request. */
  enqueue(purchaseId: string, version: number): Promise<void> {
    const trace = currentTraceCarrier();
    return this.batcher.submit(trace ? { purchaseId, version, trace } : { purchaseId, version });
  }

  /**
   * Enqueues the job of a row just committed; a failure only logs, since the sweeper gives every
   * live row without a job its job. `context.log` is read only then: a request's logger is built on first use.
   */
  async enqueueOrLeaveToSweeper(
    row: { id: string; version: number },
    context: { log: Logger },
    idField: string,
  ): Promise<void> {
    try {
      await this.enqueue(row.id, row.version);
    } catch (error) {
      context.log.warn('enqueue failed; the sweeper will enqueue it', { [idField]: row.id, error });
    }
  }
}
