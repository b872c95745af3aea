/**
 * SingleFlight and ReadLimiter on the real Redis of this jest worker: one computation per key
 * across instances (as across gateway replicas), failures shared with the waiters, takeover when
 * a leader vanishes, and the budgets and cooldown that protect the Fragment login.
 */
import { randomBytes } from 'node:crypto';
import IORedis, { type Redis } from 'ioredis';
import { ReadError, ReadLimiter, SingleFlight } from '../src';

const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const connections: Redis[] = [];
function redis(): Redis {
  const connection = new IORedis(url, { maxRetriesPerRequest: 3 });
  connections.push(connection);
  return connection;
}
afterAll(async () => {
  await Promise.all(connections.map((connection) => connection.quit()));
});

const prefix = () => `test-${randomBytes(4).toString('hex')}:reads:`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SingleFlight', () => {
  it('runs one computation for 3 × 50 concurrent callers on 3 instances with their own connections', async () => {
    const shared = prefix();
    const replicas = [0, 1, 2].map(() => new SingleFlight({ redis: redis(), prefix: shared, pollMs: 5 }));
    let computations = 0;
    const compute = async () => {
      computations += 1;
      await sleep(150);
      return { answer: 'AVAILABLE', at: 42 };
    };
    const results = await Promise.all(
      replicas.flatMap((flight) => Array.from({ length: 50 }, () => flight.run('avail:stars:alice', compute))),
    );
    expect(computations).toBe(1);
    expect(results).toHaveLength(150);
    expect(results.every((result) => result.answer === 'AVAILABLE' && result.at === 42)).toBe(true);
    expect(replicas.reduce((sum, flight) => sum + flight.leaderRuns, 0)).toBe(1);
  });

  it("shares the leader's failure with waiting replicas as a ReadError", async () => {
    const shared = prefix();
    const [a, b] = [
      new SingleFlight({ redis: redis(), prefix: shared, pollMs: 5 }),
      new SingleFlight({ redis: redis(), prefix: shared, pollMs: 5 }),
    ];
    let computations = 0;
    const failing = async (): Promise<string> => {
      computations += 1;
      await sleep(100);
      throw new ReadError('RATE_LIMITED', 'upstream_rate_limited', 'Fragment said 429', { retryAfterMs: 3_000 });
    };
    const outcomes = await Promise.allSettled([a.run('k', failing), b.run('k', failing), b.run('k', failing)]);
    expect(computations).toBe(1);
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected');
      const reason = (outcome as PromiseRejectedResult).reason as ReadError;
      expect(reason).toBeInstanceOf(ReadError);
      expect(reason).toMatchObject({ kind: 'RATE_LIMITED', reason: 'upstream_rate_limited', retryAfterMs: 3_000 });
    }
  });

  it('takes over when the leader vanishes without publishing (lock expiry)', async () => {
    const shared = prefix();
    const connection = redis();
    // A "crashed" leader: holds the lock, never publishes.
    await connection.set(`${shared}lock:k`, 'ghost', 'PX', 200);
    const flight = new SingleFlight({ redis: connection, prefix: shared, pollMs: 5 });
    const started = Date.now();
    expect(await flight.run('k', () => Promise.resolve('mine'))).toBe('mine');
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('gives up waiting after waitTimeoutMs with UNAVAILABLE', async () => {
    const shared = prefix();
    const connection = redis();
    await connection.set(`${shared}lock:k`, 'slow-leader', 'PX', 5_000);
    const flight = new SingleFlight({ redis: connection, prefix: shared, pollMs: 5, waitTimeoutMs: 100 });
    await expect(flight.run('k', () => Promise.resolve('never'))).rejects.toMatchObject({
      kind: 'UNAVAILABLE',
      reason: 'deadline',
    });
  });

  it('runs again once a flight is over (it is not a cache)', async () => {
    const flight = new SingleFlight({ redis: redis(), prefix: prefix() });
    let n = 0;
    expect(await flight.run('k', () => Promise.resolve(++n))).toBe(1);
    expect(await flight.run('k', () => Promise.resolve(++n))).toBe(2);
  });
});

describe('ReadLimiter', () => {
  it('enforces the per-scope and the global budget, counted across instances', async () => {
    const shared = prefix();
    const options = { prefix: shared, global: { max: 4, windowMs: 60_000 }, perScope: { max: 2, windowMs: 60_000 } };
    const a = new ReadLimiter({ redis: redis(), ...options });
    const b = new ReadLimiter({ redis: redis(), ...options });
    await a.acquire({ scope: 'alice' });
    await b.acquire({ scope: 'alice' });
    await expect(a.acquire({ scope: 'alice' })).rejects.toMatchObject({
      kind: 'RATE_LIMITED',
      reason: 'username_budget',
    });
    await b.acquire({ scope: 'bob' });
    await a.acquire();
    const over = await b.acquire({ scope: 'carol' }).catch((error: ReadError) => error);
    expect(over).toMatchObject({ kind: 'RATE_LIMITED', reason: 'global_budget' });
    expect((over as ReadError).retryAfterMs).toBeGreaterThan(59_000);
    // The list refresh bypasses the budget (it respects only a cooldown).
    await expect(a.acquire({ budget: false })).resolves.toBeUndefined();
  });

  it('a cooldown stops every read until it passes, and is never shortened', async () => {
    const limiter = new ReadLimiter({
      redis: redis(),
      prefix: prefix(),
      global: { max: 100, windowMs: 60_000 },
      perScope: { max: 100, windowMs: 60_000 },
    });
    expect(await limiter.cooldown(300)).toBe(300);
    expect(await limiter.cooldown(50)).toBeGreaterThan(200); // the longer one stays
    await expect(limiter.acquire({ budget: false })).rejects.toMatchObject({ reason: 'upstream_cooldown' });
    const error = (await limiter.acquire().catch((e: ReadError) => e)) as ReadError;
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(error.retryAfterMs).toBeLessThanOrEqual(300);
    await sleep(320);
    await expect(limiter.acquire()).resolves.toBeUndefined();
    expect(await limiter.cooldownRemainingMs()).toBe(0);
  });
});
