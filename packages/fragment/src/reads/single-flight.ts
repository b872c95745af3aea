/**
 * Single-flight for upstream reads: a burst of identical requests makes ONE Fragment call.
 *
 * - In one process: concurrent callers of `run(key)` share one promise.
 * - Across processes (gateway replicas, the worker): the leader holds a Redis lock
 *   `SET lock:<key> <token> NX PX lockTtlMs`; the others wait for the leader's outcome, which it
 *   publishes under `result:<key>` tagged with its token (value, or the ReadError it hit) for
 *   `resultTtlMs`. If the lock vanishes without a result (leader crashed, lock expired), a waiter
 *   takes the lead itself. Waiting is bounded by `waitTimeoutMs` (then UNAVAILABLE).
 *
 * Values must be JSON-serialisable (money travels as decimal/integer strings, never bigint).
 * `lockTtlMs` must exceed the longest upstream read (timeout × tries + backoff) or a second
 * replica may start a duplicate call after the lock expires.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ReadError, toReadError } from './read-errors';

export interface SingleFlightOptions {
  redis: Redis;
  /** Key prefix, e.g. `starsgate:reads:`. */
  prefix: string;
  lockTtlMs?: number;
  resultTtlMs?: number;
  waitTimeoutMs?: number;
  pollMs?: number;
}

interface Published {
  token: string;
  ok: boolean;
  value?: unknown;
  error?: unknown;
}

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SingleFlight {
  private readonly inflight = new Map<string, Promise<unknown>>();
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly lockTtlMs: number;
  private readonly resultTtlMs: number;
  private readonly waitTimeoutMs: number;
  private readonly pollMs: number;
  /** Leader runs in this process (observability and tests). */
  leaderRuns = 0;

  constructor(options: SingleFlightOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.lockTtlMs = options.lockTtlMs ?? 15_000;
    this.resultTtlMs = options.resultTtlMs ?? 2_000;
    this.waitTimeoutMs = options.waitTimeoutMs ?? this.lockTtlMs + 1_000;
    this.pollMs = options.pollMs ?? 20;
  }

  /** Runs `compute` once per key at a time, here and across every process sharing this Redis. */
  run<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const existing = this.inflight.get(key);
    if (existing) return existing as Promise<T>;
    const flight = this.lead(key, compute).finally(() => this.inflight.delete(key));
    this.inflight.set(key, flight);
    return flight;
  }

  /** Number of keys in flight in this process. */
  get size(): number {
    return this.inflight.size;
  }

  private async lead<T>(key: string, compute: () => Promise<T>): Promise<T> {
    const lockKey = `${this.prefix}lock:${key}`;
    const resultKey = `${this.prefix}result:${key}`;
    const deadline = Date.now() + this.waitTimeoutMs;
    for (;;) {
      const token = randomUUID();
      const acquired = await this.redis.set(lockKey, token, 'PX', this.lockTtlMs, 'NX');
      if (acquired === 'OK') return this.runAsLeader(lockKey, resultKey, token, compute);

      // Another process leads: wait for the outcome it publishes under its token.
      const holder = await this.redis.get(lockKey);
      if (holder === null) continue; // released in between: try to lead
      const outcome = await this.awaitOutcome<T>(lockKey, resultKey, holder, deadline);
      if (outcome.done) return outcome.value;
      if (Date.now() >= deadline) throw this.waitTimeout(key);
    }
  }

  private async runAsLeader<T>(
    lockKey: string,
    resultKey: string,
    token: string,
    compute: () => Promise<T>,
  ): Promise<T> {
    this.leaderRuns += 1;
    try {
      const value = await compute();
      await this.publish(resultKey, { token, ok: true, value });
      return value;
    } catch (error) {
      await this.publish(resultKey, { token, ok: false, error: toReadError(error).toJSON() });
      throw error;
    } finally {
      await this.redis.eval(RELEASE, 1, lockKey, token).catch(() => undefined);
    }
  }

  private async publish(resultKey: string, published: Published): Promise<void> {
    try {
      await this.redis.set(resultKey, JSON.stringify(published), 'PX', this.resultTtlMs);
    } catch {
      // Waiters fall back to leading themselves once the lock is released.
    }
  }

  /** `done: false` = the leader vanished without publishing: the caller may lead now. */
  private async awaitOutcome<T>(
    lockKey: string,
    resultKey: string,
    holder: string,
    deadline: number,
  ): Promise<{ done: true; value: T } | { done: false }> {
    while (Date.now() < deadline) {
      const [raw, current] = await Promise.all([this.redis.get(resultKey), this.redis.get(lockKey)]);
      const outcome = this.outcomeOf<T>(raw, holder);
      if (outcome) return outcome;
      if (current !== holder) {
        // The leader may have published and released between the two reads: look once more.
        return this.outcomeOf<T>(await this.redis.get(resultKey), holder) ?? { done: false };
      }
      await sleep(this.pollMs);
    }
    return { done: false };
  }

  private outcomeOf<T>(raw: string | null, holder: string): { done: true; value: T } | undefined {
    if (raw === null) return undefined;
    let published: Published | undefined;
    try {
      published = JSON.parse(raw) as Published;
    } catch {
      return undefined;
    }
    if (published?.token !== holder) return undefined;
    if (published.ok) return { done: true, value: published.value as T };
    throw ReadError.fromJSON(published.error);
  }

  private waitTimeout(key: string): ReadError {
    return new ReadError(
      'UNAVAILABLE',
      'deadline',
      `waited ${this.waitTimeoutMs} ms for another process's read of ${key.split(':')[0]}`,
    );
  }
}
