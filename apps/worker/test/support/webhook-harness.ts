import type { Worker } from 'bullmq';
import { WebhookDeliveries, WebhookEndpoints } from '@starsgate/db';
import { closeQueue, createWebhookQueue, redisConnectionOptions, type WebhookJobData } from '@starsgate/platform';
import { PeriodicTask } from '../../src/periodic/periodic-task';
import { startWebhookWorker } from '../../src/webhooks/webhook-delivery';
import { drainWebhooks } from '../../src/webhooks/webhook-drain';
import type { WorkerHarness } from './worker-harness';

/** Webhook settings for tests: a fast drain, short timeouts and retries. */
export const FAST_WEBHOOKS = {
  WEBHOOK_DRAIN_INTERVAL_MS: '100',
  WEBHOOK_TIMEOUT_MS: '500',
  WEBHOOK_RETRY_BASE_MS: '100',
  WEBHOOK_RETRY_MAX_MS: '400',
  WEBHOOK_MAX_ATTEMPTS: '4',
};

/** The worker's webhook side (delivery worker and drain) as main runs it, on the harness's database and Redis. */
export class WebhookHarness {
  readonly endpoints: WebhookEndpoints;
  readonly deliveries: WebhookDeliveries;
  readonly queue;
  private worker?: Worker<WebhookJobData>;
  private drain?: PeriodicTask;

  constructor(private readonly h: WorkerHarness) {
    this.endpoints = new WebhookEndpoints(h.database.db, h.vault);
    this.deliveries = new WebhookDeliveries(h.database.db);
    this.queue = createWebhookQueue(h.env.REDIS_URL!, h.bullPrefix);
  }

  start(): void {
    const { config, logger, leases } = this.h.deps;
    this.worker = startWebhookWorker({
      deliveries: this.deliveries,
      endpoints: this.endpoints,
      queue: this.queue,
      config: config.webhooks,
      logger,
      connection: redisConnectionOptions(this.h.env.REDIS_URL!, { forWorker: true }),
      prefix: this.h.bullPrefix,
    });
    this.drain = new PeriodicTask(
      'webhook-drain',
      { leases, logger, intervalMs: config.webhooks.drainIntervalMs },
      async () => {
        await drainWebhooks(this.deliveries, this.queue);
      },
    );
    this.drain.start();
  }

  async stop(): Promise<void> {
    await this.drain?.stop();
    await this.worker?.close();
    this.worker = undefined;
    this.drain = undefined;
  }

  async close(): Promise<void> {
    await this.stop();
    await this.queue.obliterate({ force: true }).catch(() => undefined);
    await closeQueue(this.queue);
  }
}
