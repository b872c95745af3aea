/**
 * Two small caches for upstream reads.
 *
 * - `RedisJsonCache`: JSON values under one key prefix with a per-entry TTL; shared by every
 *   gateway replica and the worker, so one Fragment answer serves them all.
 * - `LocalTtlCache`: a bounded in-process map with a very short TTL (default 1 s) in front of
 *   Redis, so a hot key costs no network round trip. Its TTL is the only extra staleness it adds,
 *   and the timestamps inside the values (`checked_at`, `updated_at`) still say when Fragment
 *   answered.
 */
import type { Redis } from 'ioredis';

export class RedisJsonCache {
  constructor(
    private readonly redis: Redis,
    /** e.g. `starsgate:reads:` */
    readonly prefix: string,
  ) {}

  key(name: string): string {
    return `${this.prefix}${name}`;
  }

  async get<T>(name: string): Promise<T | undefined> {
    const raw = await this.redis.get(this.key(name));
    if (raw === null) return undefined;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return undefined;
    }
  }

  /** Stores with a TTL in ms; `ttlMs <= 0` stores without expiry. */
  async set(name: string, value: unknown, ttlMs: number): Promise<void> {
    const json = JSON.stringify(value);
    if (ttlMs > 0) await this.redis.set(this.key(name), json, 'PX', Math.ceil(ttlMs));
    else await this.redis.set(this.key(name), json);
  }

  /** Remaining TTL in ms (undefined when the key is absent or has no expiry). */
  async ttlMs(name: string): Promise<number | undefined> {
    const ttl = await this.redis.pttl(this.key(name));
    return ttl > 0 ? ttl : undefined;
  }

  async delete(name: string): Promise<void> {
    await this.redis.del(this.key(name));
  }
}

export class LocalTtlCache<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Keeps the value for the cache TTL, or less when `maxAgeMs` says it expires sooner. */
  set(key: string, value: T, maxAgeMs = this.ttlMs): void {
    const ttl = Math.min(this.ttlMs, maxAgeMs);
    if (ttl <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Oldest insertion first: a Map iterates in insertion order.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttl });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }
}
