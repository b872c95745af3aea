import { randomBytes } from 'node:crypto';
import { createRedisConnection } from '@starsgate/platform';
import { RedisWindowCounter } from '../src/http/redis-window-counter';

const redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
afterAll(() => redis.quit());

it('counts the hits of one turn in one script call, each at its own position, per key', async () => {
  const prefix = `window-test-${randomBytes(4).toString('hex')}:`;
  const counter = new RedisWindowCounter(redis, 30_000);
  await counter.hit(`${prefix}warm-up`); // loads the script into Redis
  const sent: string[] = [];
  const originalSend = redis.sendCommand.bind(redis);
  redis.sendCommand = (command: { name: string }) => {
    sent.push(command.name);
    return originalSend(command as never);
  };
  let first;
  try {
    first = await Promise.all(
      [`${prefix}a`, `${prefix}b`, `${prefix}a`, `${prefix}a`, `${prefix}b`].map((key) => counter.hit(key)),
    );
  } finally {
    redis.sendCommand = originalSend;
  }
  expect(first.map((hit) => hit.hits)).toEqual([1, 1, 2, 3, 2]);
  expect(sent).toEqual(['evalsha']);
  for (const hit of first) {
    expect(hit.resetMs).toBeGreaterThan(0);
    expect(hit.resetMs).toBeLessThanOrEqual(30_000);
  }

  const next = await counter.hit(`${prefix}a`);
  expect(next.hits).toBe(4);
  expect(await redis.pttl(`${prefix}a`)).toBeGreaterThan(0);
});
