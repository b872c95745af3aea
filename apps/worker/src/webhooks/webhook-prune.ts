import type { WebhookDeliveries } from '@starsgate/db';

const PRUNE_BATCH = 1_000;
/** Bounds one pass, so a first pass over a large backlog does not hold the lease for long. */
const PRUNE_BATCHES_PER_PASS = 20;
const DAY_MS = 86_400_000;

/**
 * Retention of the webhook outbox: events whose deliveries are all settled (delivered or failed)
 * go after `retentionDays`, with their deliveries. Pending and undispatched events stay whatever
 * their age.
 */
export async function pruneWebhooks(
  deliveries: WebhookDeliveries,
  retentionDays: number,
  now: Date = new Date(),
): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * DAY_MS);
  let pruned = 0;
  for (let batch = 0; batch < PRUNE_BATCHES_PER_PASS; batch += 1) {
    const deleted = await deliveries.prune(cutoff, PRUNE_BATCH);
    pruned += deleted;
    if (deleted < PRUNE_BATCH) break;
  }
  return pruned;
}
