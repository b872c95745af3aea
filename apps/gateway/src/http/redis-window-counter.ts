import type { Redis } from 'ioredis';
import { MicroBatcher, type Settled } from '../batching/micro-batcher';

export interface WindowHit {
  /** Hits in the current window up to and including this one, in the order Redis counted them. */
  hits: number;
  /** Milliseconds until the window (and its count) expires. */
  resetMs: number;
}

/**
 * Adds each key's hits of the whole batch with one INCRBY and reads the window's TTL; a new
 * window (count equals the batch's hits) or a key without TTL gets the window length. One
 * script call per batch, so many requests cost one Redis round trip.
 */
const COUNT_HITS_SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local added = tonumber(ARGV[i + 1])
  local total = redis.call('INCRBY', key, added)
  local ttl = redis.call('PTTL', key)
  if total == added or ttl <= 0 then
    redis.call('PEXPIRE', key, ARGV[1])
    ttl = tonumber(ARGV[1])
  end
  out[#out + 1] = total
  out[#out + 1] = ttl
end
return out`;

type CountingRedis = Redis & {
  starsgateCountHits(keyCount: number, ...args: Array<string | number>): Promise<number[]>;
};

/**
 * Fixed-window request counters in Redis, shared by every replica. Hits of one event-loop turn
 * are sent together (see MicroBatcher); each hit still gets its exact position in the shared
 * count, so the limit is enforced as strictly as with one INCR per request.
 */
export class RedisWindowCounter {
  private readonly redis: CountingRedis;
  private readonly batcher: MicroBatcher<string, WindowHit>;

  constructor(
    redis: Redis,
    private readonly windowMs: number,
  ) {
    if (!('starsgateCountHits' in redis)) redis.defineCommand('starsgateCountHits', { lua: COUNT_HITS_SCRIPT });
    this.redis = redis as CountingRedis;
    this.batcher = new MicroBatcher((keys) => this.countBatch(keys), { maxBatchSize: 512, maxInFlight: 4 });
  }

  hit(key: string): Promise<WindowHit> {
    return this.batcher.submit(key);
  }

  private async countBatch(keys: readonly string[]): Promise<Array<Settled<WindowHit>>> {
    const hitsPerKey = new Map<string, number>();
    for (const key of keys) hitsPerKey.set(key, (hitsPerKey.get(key) ?? 0) + 1);
    const distinct = [...hitsPerKey.keys()];
    const reply = await this.redis.starsgateCountHits(
      distinct.length,
      ...distinct,
      this.windowMs,
      ...distinct.map((key) => hitsPerKey.get(key) ?? 0),
    );

    const next = new Map<string, { hits: number; resetMs: number }>();
    distinct.forEach((key, index) => {
      const total = Number(reply[2 * index]);
      next.set(key, { hits: total - (hitsPerKey.get(key) ?? 0), resetMs: Number(reply[2 * index + 1]) });
    });
    return keys.map((key) => {
      const counter = next.get(key) as { hits: number; resetMs: number };
      counter.hits += 1;
      return { ok: true, value: { hits: counter.hits, resetMs: counter.resetMs } };
    });
  }
}
