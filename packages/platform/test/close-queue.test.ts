/**
 * closeQueue on a real Redis: a queue closed while its connection is still being set up must not
 * leave BullMQ's failed set-up to surface later as an unhandled error (taskforcesh/bullmq#3546).
 */
import { randomBytes } from 'node:crypto';
import { closeQueue, createPurchaseQueue } from '../src/queue/purchase-queue';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

it('closes queues right after creating them without an unhandled error', async () => {
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    // Closed at every moment of the set-up: connecting, connected, asking for the Redis version.
    for (let i = 0; i < 60; i += 1) {
      const queue = createPurchaseQueue(REDIS_URL, `close-test-${randomBytes(4).toString('hex')}`);
      await new Promise((resolve) => setTimeout(resolve, i % 6));
      await closeQueue(queue);
    }
    // Give a failed set-up time to surface.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(unhandled).toEqual([]);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
});
