import { randomUUID } from 'node:crypto';
import type { Queue } from 'bullmq';
import type { LeaseRepository, PurchaseRepository } from '@starsgate/db';
import { enqueuePurchase, purchaseJobId, type Logger, type PurchaseJobData } from '@starsgate/platform';

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
 * sweeper makes sure each has its BullMQ job. It runs on a timer in every worker replica,
 * single-flight through a PostgreSQL lease, rather than as a BullMQ repeatable job: a
 * repeatable job lives in Redis and would vanish with the very flush it has to repair.
 */
export class Sweeper {
  private readonly owner = `sweeper-${randomUUID()}`;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly deps: SweeperDeps) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.tick().finally(() => {
        this.running = undefined;
      });
    }, this.deps.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    try {
      const lease = await this.deps.leases.acquire('sweeper', this.owner, this.deps.intervalMs * 2);
      if (!lease) return;
      const result = await this.sweepOnce();
      if (result.enqueued > 0) this.deps.logger.info('sweeper restored jobs', { ...result });
    } catch (error) {
      this.deps.logger.error('sweep failed', { error });
    }
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
