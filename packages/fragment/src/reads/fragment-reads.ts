/**
 * Wires the read components around one FragmentClient: what the gateway (availability, quotes)
 * and the worker (price refresher) construct from their configuration.
 */
import type { Redis } from 'ioredis';
import { FragmentClient } from '../client';
import type { FragmentLogger } from '../transport';
import { AvailabilityChecker, type DisabledPaymentMethods } from './availability-checker';
import { PriceBook } from './price-book';
import { ReadLimiter, type Budget } from './read-limits';
import { SingleFlight } from './single-flight';

export interface FragmentReadsOptions {
  /** A client to use, or how to build one for reads. */
  fragment:
    | FragmentClient
    | {
        baseUrl: string;
        /** Cookie header of the Fragment login. A credential: never logged. */
        cookies: string;
        /** HTTP/HTTPS proxy of the read login (FRAGMENT_PROXY_URL). */
        proxyUrl?: string;
        /** Per HTTP call (default 5 000 ms). */
        timeoutMs?: number;
        /** Tries per read, 1 = no retry (default 2). A Fragment 429 is never waited out here. */
        tries?: number;
      };
  redis: Redis;
  /** e.g. `starsgate:reads:` — the gateway and the worker must use the same one. */
  prefix: string;
  availability?: {
    positiveTtlMs?: number;
    negativeTtlMs?: number;
    deadlineMs?: number;
    disabledPaymentMethods?: DisabledPaymentMethods;
  };
  prices?: {
    quoteTtlMs?: number;
    staleAfterMs?: number;
    keepLastKnownMs?: number;
    failureBackoffMs?: number;
    deadlineMs?: number;
  };
  limits?: {
    global?: Budget;
    perUsername?: Budget;
    defaultCooldownMs?: number;
  };
  /** Longest a single-flight lock is held (must exceed timeout × tries + backoff; default 15 000 ms). */
  lockTtlMs?: number;
  /** In-process cache TTL in front of Redis (default 1 000 ms). */
  memoryTtlMs?: number;
  logger?: Partial<FragmentLogger>;
  /** Wraps the client every read goes through (the gateway times and counts its Fragment look-ups). */
  instrument?: (client: FragmentClient) => FragmentClient;
}

export interface FragmentReads {
  client: FragmentClient;
  availability: AvailabilityChecker;
  prices: PriceBook;
  limiter: ReadLimiter;
  flight: SingleFlight;
}

export function createFragmentReads(options: FragmentReadsOptions): FragmentReads {
  const built =
    options.fragment instanceof FragmentClient
      ? options.fragment
      : new FragmentClient({
          baseUrl: options.fragment.baseUrl,
          cookies: options.fragment.cookies,
          ...(options.fragment.proxyUrl ? { proxyUrl: options.fragment.proxyUrl } : {}),
          timeoutMs: options.fragment.timeoutMs ?? 5_000,
          // Reads fail fast: one retry of a 5xx/timeout; a Retry-After is surfaced, not slept on.
          retry: { maxTries: options.fragment.tries ?? 2, baseDelayMs: 200, maxDelayMs: 1_000, maxRetryAfterMs: 0 },
          ...(options.logger ? { logger: options.logger } : {}),
        });
  const client = options.instrument ? options.instrument(built) : built;
  const flight = new SingleFlight({
    redis: options.redis,
    prefix: options.prefix,
    lockTtlMs: options.lockTtlMs ?? 15_000,
  });
  const limiter = new ReadLimiter({
    redis: options.redis,
    prefix: options.prefix,
    global: options.limits?.global ?? { max: 60, windowMs: 60_000 },
    perScope: options.limits?.perUsername ?? { max: 6, windowMs: 60_000 },
    ...(options.limits?.defaultCooldownMs !== undefined ? { defaultCooldownMs: options.limits.defaultCooldownMs } : {}),
  });
  const availability = new AvailabilityChecker({
    fragment: client,
    redis: options.redis,
    prefix: options.prefix,
    flight,
    limiter,
    positiveTtlMs: options.availability?.positiveTtlMs ?? 30_000,
    negativeTtlMs: options.availability?.negativeTtlMs ?? 60_000,
    deadlineMs: options.availability?.deadlineMs ?? 8_000,
    ...(options.availability?.disabledPaymentMethods
      ? { disabledPaymentMethods: options.availability.disabledPaymentMethods }
      : {}),
    ...(options.memoryTtlMs !== undefined ? { memoryTtlMs: options.memoryTtlMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const prices = new PriceBook({
    fragment: client,
    redis: options.redis,
    prefix: options.prefix,
    flight,
    limiter,
    ...options.prices,
    ...(options.memoryTtlMs !== undefined ? { memoryTtlMs: options.memoryTtlMs } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  return { client, availability, prices, limiter, flight };
}
