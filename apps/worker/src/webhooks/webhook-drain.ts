import type { Queue } from 'bullmq';
import { webhookEventOf } from '@starsgate/domain';
import type { WebhookDeliveries } from '@starsgate/db';
import { enqueueWebhookDeliveries, type WebhookJobData } from '@starsgate/platform';

/** Events fanned out and due deliveries enqueued per pass. */
const DRAIN_BATCH = 1_000;

/**
 * The drain of the webhook outbox (as the sweeper is the purchases' drain): fans committed events
 * out into deliveries, then makes sure every due, unclaimed delivery has its job. After a Redis
 * loss or a crash between commit and enqueue, nothing is lost: PostgreSQL holds the schedule.
 */
export async function drainWebhooks(
  deliveries: WebhookDeliveries,
  queue: Queue<WebhookJobData>,
): Promise<{ created: number; enqueued: number }> {
  const created = await deliveries.dispatch((purchase) => webhookEventOf(purchase).type, DRAIN_BATCH);
  const due = await deliveries.due(DRAIN_BATCH);
  await enqueueWebhookDeliveries(queue, due);
  return { created: created.length, enqueued: due.length };
}
