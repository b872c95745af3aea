/**
 * Attack 25 (docs/security.md): `/readyz` on the public port ran two PostgreSQL queries and a Redis
 * ping for every hit, with no limit, so anyone could turn requests into load on both. A check now
 * answers every hit for a second after it started (one in flight at a time); draining still turns
 * the probe at once.
 */
import { createRedisConnection } from '@starsgate/platform';
import { startStack, type RunningStack } from '../support/running-stack';

const HITS = 200;
const AT_ONCE = 20;

/** How many PING commands the Redis server has run since it started (every client's). */
async function pingsServed(redisUrl: string): Promise<number> {
  const redis = createRedisConnection(redisUrl);
  try {
    const stats = await redis.info('commandstats');
    return Number(/cmdstat_ping:calls=(\d+)/.exec(stats)?.[1] ?? 0);
  } finally {
    await redis.quit();
  }
}

describe('/readyz on the public port of a running stack', () => {
  let stack: RunningStack;
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  beforeAll(async () => {
    stack = await startStack();
  }, 240_000);
  afterAll(() => stack?.stop());

  it('runs its dependency checks at most once a second, however often it is asked', async () => {
    const before = await pingsServed(redisUrl);
    const startedAt = Date.now();
    const statuses: number[] = [];
    for (let batch = 0; batch < HITS / AT_ONCE; batch += 1)
      statuses.push(
        ...(await Promise.all(
          Array.from({ length: AT_ONCE }, async () => {
            const response = await fetch(`${stack.gatewayUrl}/readyz`);
            await response.arrayBuffer();
            return response.status;
          }),
        )),
      );
    const seconds = Math.ceil((Date.now() - startedAt) / 1000);
    const pings = (await pingsServed(redisUrl)) - before;

    expect(statuses.every((status) => status === 200)).toBe(true);
    // One check per second started, plus one a client of this Redis other than /readyz may have sent.
    expect(pings).toBeGreaterThanOrEqual(1);
    expect(pings).toBeLessThanOrEqual(seconds + 2);
    expect(pings).toBeLessThan(HITS / 4);
  });
});
