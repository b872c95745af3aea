/**
 * The worker ScaledObject's triggers against real BullMQ keys: purchases enqueued the way the
 * gateway and the worker enqueue them are counted by the keys the triggers name, read the way
 * KEDA's redis scaler reads a key (its type picks LLEN for a list, ZCARD for a sorted set).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  closeQueue,
  createPurchaseQueue,
  createRedisConnection,
  createWebhookQueue,
  enqueuePurchase,
  enqueuePurchases,
  enqueueWebhookDeliveries,
} from '@starsgate/platform';
import { configData, find, render } from './k8s-manifests';

const COUNT_BY_TYPE: Record<string, string> = { zset: 'ZCARD', set: 'SCARD', list: 'LLEN', hash: 'HLEN', none: 'LLEN' };

test('KEDA counts every waiting job: new purchases (prioritized), steps under way (wait) and webhook deliveries; delayed ones wait their turn', async () => {
  const objects = render('production');
  const configuredPrefix = configData(objects).BULLMQ_PREFIX!;
  const triggers = (
    find(objects, 'ScaledObject', 'starsgate-worker').spec as {
      triggers: Array<{ type: string; metadata: { listName: string } }>;
    }
  ).triggers.filter((trigger) => trigger.type === 'redis');
  // The same keys under a prefix of this test's own.
  const prefix = `keda-${randomBytes(4).toString('hex')}`;
  const keys = triggers.map((trigger) => `${prefix}${trigger.metadata.listName.slice(configuredPrefix.length)}`);

  const redis = createRedisConnection(process.env.REDIS_URL!);
  const queue = createPurchaseQueue(process.env.REDIS_URL!, prefix);
  const webhooks = createWebhookQueue(process.env.REDIS_URL!, prefix);
  try {
    await enqueueWebhookDeliveries(webhooks, [
      { id: randomUUID(), attempts: 0 },
      { id: randomUUID(), attempts: 0 },
    ]);
    await enqueuePurchases(
      queue,
      Array.from({ length: 7 }, () => ({ purchaseId: randomUUID(), version: 1 })),
      { newPurchase: true },
    );
    for (let i = 0; i < 3; i += 1) await enqueuePurchase(queue, randomUUID(), 4);
    await enqueuePurchase(queue, randomUUID(), 5, 60_000);

    const counts: number[] = [];
    for (const key of keys) {
      const type = await redis.type(key);
      counts.push(Number(await redis.call(COUNT_BY_TYPE[type]!, key)));
    }
    expect(counts).toEqual([3, 7, 2]);
    const waiting = await queue.getJobCounts('wait', 'prioritized', 'delayed');
    const deliveries = await webhooks.getJobCounts('wait', 'prioritized');
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(
      waiting.wait! + waiting.prioritized! + deliveries.wait! + deliveries.prioritized!,
    );
    expect(waiting.delayed).toBe(1);
  } finally {
    await queue.obliterate({ force: true });
    await webhooks.obliterate({ force: true });
    await closeQueue(queue);
    await closeQueue(webhooks);
    await redis.quit();
  }
});
