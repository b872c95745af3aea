import type { ConnectionOptions, JobsOptions, Queue } from 'bullmq';
import { createQueue } from './purchase-queue';

export const WEBHOOK_QUEUE = 'webhook-deliveries';
export const WEBHOOK_JOB = 'deliver';

export interface WebhookJobData {
  deliveryId: string;
}

/** One job per (delivery, attempt): duplicate enqueues of one attempt collapse. */
export function webhookJobId(deliveryId: string, attempt: number): string {
  return `wd-${deliveryId}-a${attempt}`;
}

/** The schedule lives in PostgreSQL; finished jobs are dropped so the drain can re-add an id at once. */
export const WEBHOOK_JOB_OPTIONS: JobsOptions = { attempts: 1, removeOnComplete: true, removeOnFail: true };

/** The webhook delivery queue, under the same key prefix as the purchase queue. */
export function createWebhookQueue(
  connection: string | ConnectionOptions,
  prefix?: string,
  onError?: (error: Error) => void,
): Queue<WebhookJobData> {
  return createQueue<WebhookJobData>(WEBHOOK_QUEUE, WEBHOOK_JOB_OPTIONS, connection, prefix, onError);
}

export async function enqueueWebhookDeliveries(
  queue: Queue<WebhookJobData>,
  deliveries: ReadonlyArray<{ id: string; attempts: number; delayMs?: number }>,
): Promise<void> {
  if (deliveries.length === 0) return;
  await queue.addBulk(
    deliveries.map(({ id, attempts, delayMs = 0 }) => ({
      name: WEBHOOK_JOB,
      data: { deliveryId: id },
      opts: { jobId: webhookJobId(id, attempts), ...(delayMs > 0 ? { delay: delayMs } : {}) },
    })),
  );
}
