import type { Queue } from 'bullmq';
import type { LeaseRepository, PurchaseRepository } from '@starsgate/db';
import { enqueuePurchase, purchaseJobId, type Logger, type PurchaseJobData } from '@starsgate/platform';
import { PeriodicTask } from '../periodic/periodic-task';

export interface SweeperDeps {
  purchases: PurchaseRepository;
  leases: LeaseRepository;
  queue: Queue<PurchaseJobData>;
  logger: Logger;
  batchSize: number;
  intervalMs: number;
}

export interface SweepResult {
  checked: number;
  enqueued: number;
}

/**
 * The drain of the staged-record pattern: PostgreSQL holds every live purchase, and the
 * sweeper makes sure each has its BullMQ job, on a timer in every worker replica, single-flight
 * through a PostgreSQL lease (PeriodicTask).
 */
export class Sweeper {
  private readonly task: PeriodicTask;

  constructor(private readonly deps: SweeperDeps) {
    this.task = new PeriodicTask('sweeper', deps, async () => {
      const result = await this.sweepOnce();
      if (result.enqueued > 0) this.deps.logger.info('sweeper restored jobs', { ...result });
    });
  }

  start(): void {
    this.task.start();
  }

  stop(): Promise<void> {
    return this.task.stop();
  }

  /** One pass: every live, unleased purchase gets the job for its current version. */
  async sweepOnce(): Promise<SweepResult> {
    const due = await this.deps.purchases.listDueUnleased(this.deps.batchSize);
    let enqueued = 0;
    for (const purchase of due) {
      const job = await this.deps.queue.getJob(purchaseJobId(purchase.id, purchase.version));
      if (job) {
        const state = await job.getState();
        if (state !== 'completed' && state !== 'failed') continue;
        // BullMQ ignores an add while a finished job with that id is kept.
        await job.remove();
      }
      await enqueuePurchase(this.deps.queue, purchase.id, purchase.version, purchase.nextRunAt.getTime() - Date.now(), {
        newPurchase: purchase.status === 'queued',
      });
      enqueued += 1;
    }
    return { checked: due.length, enqueued };
  }
}
