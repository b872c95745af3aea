import type { Redis } from 'ioredis';

/**
 * Reserves the caller's turn in a token bucket kept in Redis (GCRA form: the key holds the
 * "theoretical arrival time", in ms of Redis's own clock, of the next free token). One script
 * call both checks and takes, so every replica sharing the key shares the rate, and the clock is
 * Redis's, so replicas with skewed clocks agree. A turn further away than `maxWaitMs` is not
 * taken: the caller fails instead of queueing behind a backlog it cannot clear in time.
 * Returns {taken (1|0), wait ms}.
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local maxWait = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - now - (burst - 1) * interval
if wait < 0 then wait = 0 end
if wait > maxWait then return {0, wait} end
local nextTat = tat + interval
redis.call('SET', KEYS[1], string.format('%d', nextTat), 'PX', nextTat - now + 1000)
return {1, wait}
`;

/** Nobody's turn comes before now + pause: the provider said it is over its limit. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local resume = now + tonumber(ARGV[1])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < resume then
  redis.call('SET', KEYS[1], string.format('%d', resume), 'PX', tonumber(ARGV[1]) + 1000)
end
return resume - now
`;

export class TokenBucketUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'TokenBucketUnavailableError';
  }
}

export interface TokenBucketObserver {
  /** A turn that had to wait (ms > 0). */
  waited?(ms: number): void;
  /** The provider answered 429. */
  rateLimited?(): void;
}

export interface SharedTokenBucketOptions {
  redis: Redis;
  /** One key per rate limit: every client of the same provider and credential uses the same key. */
  key: string;
  /** Tokens per second, > 0. */
  ratePerSecond: number;
  /** Tokens that may be spent at once after a quiet spell (default 1: requests evenly spaced). */
  burst?: number;
  /** Longest a caller waits for its turn before failing (default 20 s). */
  maxWaitMs?: number;
  /** Pause after a 429 that names no Retry-After (default 1 s, the window toncenter counts in). */
  defaultPauseMs?: number;
  /** A Redis call slower than this fails the turn (default 2 s), so a stuck Redis cannot hang a caller. */
  redisTimeoutMs?: number;
  observer?: TokenBucketObserver;
  sleep?: (ms: number) => Promise<void>;
}

const SPACING_MARGIN = 0.1;

const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A provider's request rate, shared through Redis by every process that calls it: `acquire()`
 * waits for this caller's turn, `rateLimited()` pushes everyone's next turn past the provider's
 * Retry-After. Implements the chain client's RequestPacer (docs/ton.md §9).
 */
export class SharedTokenBucket {
  private readonly intervalMs: number;
  private readonly burst: number;
  private readonly maxWaitMs: number;
  private readonly defaultPauseMs: number;
  private readonly redisTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: SharedTokenBucketOptions) {
    if (!(options.ratePerSecond > 0)) throw new RangeError('ratePerSecond must be > 0');
    // Turns are spaced a little wider than the limit: network jitter can bring two requests to the
    // provider closer together than they left, and the provider counts arrivals.
    this.intervalMs = Math.max(1, Math.round((1000 / options.ratePerSecond) * (1 + SPACING_MARGIN)));
    this.burst = Math.max(1, Math.floor(options.burst ?? 1));
    this.maxWaitMs = options.maxWaitMs ?? 20_000;
    this.defaultPauseMs = options.defaultPauseMs ?? 1000;
    this.redisTimeoutMs = options.redisTimeoutMs ?? 2000;
    this.sleep = options.sleep ?? realSleep;
  }

  /**
   * A `foreground` caller queues for the next turn. A `background` one takes a turn only while the
   * queue ahead is at most one turn long, and otherwise sleeps until it shortens (up to
   * `maxWaitMs` in all): it uses the capacity foreground callers leave, and delays none of them by
   * more than a turn (docs/security.md, attack 17).
   */
  async acquire(priority: 'foreground' | 'background' = 'foreground'): Promise<void> {
    if (priority === 'background') return this.acquireSpare();
    const [taken, wait] = await this.reserve(this.maxWaitMs);
    if (taken !== 1)
      throw new TokenBucketUnavailableError(`next request slot is ${wait} ms away (limit ${this.maxWaitMs} ms)`);
    await this.waitTurn(wait);
  }

  private async acquireSpare(): Promise<void> {
    for (let slept = 0; ;) {
      const [taken, wait] = await this.reserve(this.intervalMs);
      if (taken === 1) return this.waitTurn(wait);
      const pause = Math.max(this.intervalMs, wait - this.intervalMs);
      if (slept + pause > this.maxWaitMs)
        throw new TokenBucketUnavailableError(`no spare request slot within ${this.maxWaitMs} ms`);
      await this.sleep(pause);
      slept += pause;
    }
  }

  private async reserve(maxWaitMs: number): Promise<[number, number]> {
    return (await this.redisCall(() =>
      this.options.redis.eval(RESERVE, 1, this.options.key, this.intervalMs, this.burst, maxWaitMs),
    )) as [number, number];
  }

  private async waitTurn(wait: number): Promise<void> {
    if (wait > 0) {
      this.options.observer?.waited?.(wait);
      await this.sleep(wait);
    }
  }

  async rateLimited(retryAfterMs: number | undefined): Promise<void> {
    this.options.observer?.rateLimited?.();
    const pause = Math.min(Math.max(1, Math.ceil(retryAfterMs ?? this.defaultPauseMs)), this.maxWaitMs);
    await this.redisCall(() => this.options.redis.eval(PAUSE, 1, this.options.key, pause));
  }

  private async redisCall<T>(call: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new TokenBucketUnavailableError(`Redis did not answer within ${this.redisTimeoutMs} ms`)),
        this.redisTimeoutMs,
      );
    });
    try {
      return await Promise.race([
        call().catch((error: unknown) => {
          throw new TokenBucketUnavailableError(`Redis failed: ${(error as Error).message}`, { cause: error });
        }),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
