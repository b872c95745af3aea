import { randomUUID } from 'node:crypto';
import type { LeaseRepository } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';

/**
 * A background pass on a timer in every worker replica, single-flight through a PostgreSQL lease
 * named `name` (not a BullMQ repeatable job: that lives in Redis and would vanish with the very
 * loss it may have to repair). A pass that throws is logged; the next one runs on time.
 */
export class PeriodicTask {
  private readonly owner: string;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly name: string,
    private readonly deps: { leases: LeaseRepository; logger: Logger; intervalMs: number },
    private readonly pass: () => Promise<void>,
  ) {
    this.owner = `${name}-${randomUUID()}`;
  }

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
      const lease = await this.deps.leases.acquire(this.name, this.owner, this.deps.intervalMs * 2);
      if (!lease) return;
      await this.pass();
    } catch (error) {
      this.deps.logger.error(`${this.name} failed`, { error });
    }
  }
}
