import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import IORedis, { type Redis } from 'ioredis';
import { createRedisConnection, SharedTokenBucket, TokenBucketUnavailableError } from '../src';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Two replicas: each its own Redis connection, both on the same bucket key. */
let replicaA: Redis;
let replicaB: Redis;
beforeAll(() => {
  replicaA = createRedisConnection(REDIS_URL);
  replicaB = createRedisConnection(REDIS_URL);
});
afterAll(async () => {
  await Promise.all([replicaA.quit(), replicaB.quit()]);
});

const freshKey = () => `starsgate:rate:test:${randomBytes(6).toString('hex')}`;

/** A bucket whose waits are recorded instead of slept, so the schedule it hands out can be read exactly. */
function recordingBucket(redis: Redis, key: string, ratePerSecond: number, waits: number[], maxWaitMs = 20_000) {
  return new SharedTokenBucket({
    redis,
    key,
    ratePerSecond,
    maxWaitMs,
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
  });
}

describe('SharedTokenBucket (real Redis)', () => {
  test('two replicas on one key share the rate: their turns interleave one interval apart', async () => {
    const key = freshKey();
    const waits: number[] = [];
    const a = recordingBucket(replicaA, key, 5, waits);
    const b = recordingBucket(replicaB, key, 5, waits);
    await Promise.all(Array.from({ length: 5 }, () => Promise.all([a.acquire(), b.acquire()])));
    // The first turn is immediate (not recorded as a wait); the other nine follow at 5 rps
    // (200 ms, plus the 10 % spacing margin) whichever replica asked.
    const schedule = [0, ...waits].sort((x, y) => x - y);
    expect(schedule).toHaveLength(10);
    schedule.forEach((wait, turn) => {
      expect(wait).toBeGreaterThanOrEqual(turn * 220 - 50);
      expect(wait).toBeLessThanOrEqual(turn * 220);
    });
  });

  test("each replica really waits: a second replica is held back by the first one's turns", async () => {
    const key = freshKey();
    const a = new SharedTokenBucket({ redis: replicaA, key, ratePerSecond: 4 });
    const b = new SharedTokenBucket({ redis: replicaB, key, ratePerSecond: 4 });
    const started = Date.now();
    const finished: number[] = [];
    await Promise.all(
      [a, b, a, b, a, b].map(async (bucket) => {
        await bucket.acquire();
        finished.push(Date.now() - started);
      }),
    );
    // Six turns at 4 rps: the last one comes five intervals (~1.3 s) after the first, none failed.
    expect(finished).toHaveLength(6);
    expect(Math.max(...finished)).toBeGreaterThanOrEqual(5 * 275 - 50);
  });

  test("a 429 with Retry-After on one replica pauses the other's next turn", async () => {
    const key = freshKey();
    const waitsA: number[] = [];
    const waitsB: number[] = [];
    const a = recordingBucket(replicaA, key, 10, waitsA);
    const b = recordingBucket(replicaB, key, 10, waitsB);
    await a.acquire();
    await a.rateLimited(1500);
    await b.acquire();
    expect(waitsB).toHaveLength(1);
    expect(waitsB[0]).toBeGreaterThan(1400);
    expect(waitsB[0]).toBeLessThanOrEqual(1500);
    // Without Retry-After the pause is the default second.
    const key2 = freshKey();
    const waitsC: number[] = [];
    await recordingBucket(replicaA, key2, 10, []).rateLimited(undefined);
    await recordingBucket(replicaB, key2, 10, waitsC).acquire();
    expect(waitsC[0]).toBeGreaterThan(900);
    expect(waitsC[0]).toBeLessThanOrEqual(1000);
  });

  test('a 429 never pulls turns already handed out earlier', async () => {
    const key = freshKey();
    const waits: number[] = [];
    const a = recordingBucket(replicaA, key, 1, waits);
    for (let i = 0; i < 4; i += 1) await a.acquire(); // the next turn is ~4.2 s away
    await a.rateLimited(500);
    await a.acquire();
    expect(waits.at(-1)).toBeGreaterThan(3500);
  });

  test('a turn further away than the bound fails with TokenBucketUnavailableError and takes nothing', async () => {
    const key = freshKey();
    const waits: number[] = [];
    const bounded = recordingBucket(replicaA, key, 1, waits, 300);
    await bounded.acquire();
    await expect(bounded.acquire()).rejects.toThrow(TokenBucketUnavailableError);
    // The refused caller reserved nothing: a patient caller's turn is still the next one.
    const patient = recordingBucket(replicaB, key, 1, waits);
    await patient.acquire();
    expect(waits.at(-1)).toBeLessThanOrEqual(1100);
  });

  test('a background turn takes only spare capacity: at once on a quiet bucket, never a place in a queue', async () => {
    const key = freshKey();
    const waits: number[] = [];
    const foreground = recordingBucket(replicaA, key, 1, waits);
    const backgroundWaits: number[] = [];
    const background = recordingBucket(replicaB, key, 1, backgroundWaits, 5_000);
    // Quiet bucket: a background caller goes at once.
    await background.acquire('background');
    expect(backgroundWaits).toEqual([]);
    // Three foreground turns queued behind it (the next free one ~4.4 s away, within the caller's
    // 5 s): a foreground caller would queue for it; a background one sleeps until the queue is
    // about a turn long, gives up when that is past its bound, and takes nothing.
    for (let i = 0; i < 3; i += 1) await foreground.acquire();
    await expect(background.acquire('background')).rejects.toThrow(TokenBucketUnavailableError);
    expect(backgroundWaits).toHaveLength(1);
    expect(backgroundWaits[0]).toBeGreaterThan(3 * 1100 - 150);
    expect(backgroundWaits[0]).toBeLessThanOrEqual(3 * 1100);
    await foreground.acquire();
    expect(waits.at(-1)).toBeGreaterThan(4 * 1100 - 150);
    expect(waits.at(-1)).toBeLessThanOrEqual(4 * 1100);
  });

  test('a Redis that does not answer fails the turn within the bound instead of hanging', async () => {
    // A server that accepts the connection and never answers: a hung Redis, not a refused one.
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const stuck = new IORedis(`redis://127.0.0.1:${port}`, { maxRetriesPerRequest: null });
    stuck.on('error', () => undefined);
    try {
      const bucket = new SharedTokenBucket({ redis: stuck, key: freshKey(), ratePerSecond: 1, redisTimeoutMs: 300 });
      const started = Date.now();
      await expect(bucket.acquire()).rejects.toThrow(TokenBucketUnavailableError);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      stuck.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
