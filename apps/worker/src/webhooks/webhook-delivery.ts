import { Worker, type ConnectionOptions, type Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { webhookEventBody } from '@starsgate/domain';
import type { WebhookDeliveries, WebhookEndpoints } from '@starsgate/db';
import {
  backoffMs,
  enqueueWebhookDeliveries,
  inSpan,
  WEBHOOK_QUEUE,
  type Logger,
  type WebhookJobData,
} from '@starsgate/platform';
import type { WebhookDeliveryConfig } from '../config';
import { postWebhook } from './webhook-post';

export interface WebhookDeliveryDeps {
  deliveries: WebhookDeliveries;
  endpoints: WebhookEndpoints;
  queue: Queue<WebhookJobData>;
  config: WebhookDeliveryConfig;
  logger: Logger;
  /** Hears each settled attempt's outcome (the worker's metrics). */
  onAttempt?: (outcome: 'delivered' | 'retrying' | 'failed') => void;
}

/**
 * One attempt of one delivery: claimed in PostgreSQL (so a duplicate or stale job does nothing),
 * posted, settled, and on failure the next attempt enqueued with capped exponential backoff and
 * jitter (the drain re-enqueues it should that enqueue be lost).
 */
export async function attemptDelivery(deps: WebhookDeliveryDeps, deliveryId: string): Promise<void> {
  const { config } = deps;
  const claimed = await deps.deliveries.claim(deliveryId, config.timeoutMs + 5_000);
  if (!claimed) return;
  const secrets = await deps.endpoints.signingSecrets(claimed.endpoint.id);
  const body = webhookEventBody(claimed.event, claimed.event.purchase);
  const result = await postWebhook(
    claimed.endpoint.url,
    { id: claimed.event.id, body },
    secrets,
    config.timeoutMs,
    config.allowPrivate,
  );
  const attempt = claimed.delivery.attempts + 1;
  const delayMs =
    result.ok || attempt >= config.maxAttempts ? null : backoffMs(attempt, config.retryBaseMs, config.retryMaxMs);
  const settled = await deps.deliveries.recordAttempt(deliveryId, {
    ...result,
    retryAt: delayMs === null ? null : new Date(Date.now() + delayMs),
  });
  if (settled) deps.onAttempt?.(result.ok ? 'delivered' : settled.state === 'pending' ? 'retrying' : 'failed');
  if (!result.ok)
    deps.logger.info('webhook delivery failed', {
      delivery_id: deliveryId,
      attempt,
      status: result.status,
      error: result.error,
      retry_in_ms: delayMs,
    });
  if (settled?.state === 'pending' && delayMs !== null) {
    await enqueueWebhookDeliveries(deps.queue, [{ id: deliveryId, attempts: settled.attempts, delayMs }]).catch(
      (error: unknown) => deps.logger.warn('webhook retry enqueue failed; the drain restores it', { error }),
    );
  }
}

/** The delivery worker on its own BullMQ queue (same key prefix as the purchase queue). */
export function startWebhookWorker(
  deps: WebhookDeliveryDeps & { connection: ConnectionOptions | Redis; prefix: string },
): Worker<WebhookJobData> {
  const worker = new Worker<WebhookJobData>(
    WEBHOOK_QUEUE,
    (job: Job<WebhookJobData>) =>
      inSpan('webhook.deliver', { 'starsgate.webhook_delivery_id': job.data.deliveryId }, () =>
        attemptDelivery(deps, job.data.deliveryId),
      ),
    { connection: deps.connection, prefix: deps.prefix, concurrency: deps.config.concurrency },
  );
  worker.on('error', (error) => deps.logger.warn('webhook worker error', { error }));
  return worker;
}
