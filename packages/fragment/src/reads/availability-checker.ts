/**
 * Recipient availability, cached and single-flighted, shared by every gateway replica.
 *
 * A check answers one of the spec's codes or fails with a ReadError; it never guesses
 * `AVAILABLE`. Order of work for one check:
 *   1. payment method not sold for the product (its registry description) or switched off by
 *      configuration → PAYMENT_METHOD_UNAVAILABLE, no upstream call;
 *   2. in-process cache (≤ 1 s), then the Redis cache (positive and negative answers, own TTLs);
 *   3. on a miss, one single-flighted Fragment search per (product, username) across all
 *      callers and replicas, after taking one call from the read budgets (global + username);
 *   4. the caller waits at most `deadlineMs`; a slower lookup keeps running and fills the cache.
 *
 * The cache key is (product, lower-cased username): Fragment's recipient search does not depend
 * on the order's quantities, so an amount change is answered from the same entry.
 * Fragment 429 starts a shared cooldown (its Retry-After) during which cached answers are still
 * served and misses answer RATE_LIMITED.
 */
import type { Redis } from 'ioredis';
import {
  isProduct,
  offersPaymentMethod,
  PAYMENT_METHODS,
  type AvailabilityCode,
  type PaymentMethod,
  type Product,
  type Quantities,
} from '@starsgate/domain';
import { FRAGMENT_ERROR_KINDS } from '../error-kinds';
import { FragmentError } from '../errors';
import { silentLogger, type FragmentLogger } from '../transport';
import type { FragmentClient } from '../client';
import { ReadError, toReadError, withReadDeadline } from './read-errors';
import type { ReadLimiter } from './read-limits';
import { LocalTtlCache, RedisJsonCache } from './redis-cache';
import type { SingleFlight } from './single-flight';

export interface AvailabilityQuery {
  product: Product;
  /** `@name` as sent; matched case-insensitively. */
  username: string;
  amount: number;
  /** The order line's quantities (a one-quantity product's `amount` when absent). */
  quantities?: Quantities;
  paymentMethod: PaymentMethod;
}

export interface AvailabilityAnswer {
  code: AvailabilityCode;
  /** When Fragment answered (or the local rule was applied), epoch ms. */
  checkedAt: number;
  /** Where this answer came from (for logs, metrics and tests). */
  source: 'config' | 'memory' | 'cache' | 'upstream';
}

/** `usdt` (every product) or `<product>:usdt` (one product of the registry, `<product>` its registry name). */
export type DisabledPaymentMethods = ReadonlySet<string>;

export function parseDisabledPaymentMethods(text: string | undefined): { disabled: Set<string>; problems: string[] } {
  const disabled = new Set<string>();
  const problems: string[] = [];
  for (const raw of (text ?? '').split(',')) {
    const entry = raw.trim().toLowerCase();
    if (entry === '') continue;
    const [first = '', second] = entry.split(':');
    const [product, method] = second === undefined ? [undefined, first] : [first, second];
    const known = (PAYMENT_METHODS as readonly string[]).includes(method);
    if (!known || (product !== undefined && !isProduct(product)) || entry.split(':').length > 2)
      problems.push(`"${raw.trim()}" is not ${PAYMENT_METHODS.join(', ')} or <product>:<method>`);
    else disabled.add(product ? `${product}:${method}` : method);
  }
  return { disabled, problems };
}

export function isPaymentMethodDisabled(
  disabled: DisabledPaymentMethods,
  product: Product,
  method: PaymentMethod,
): boolean {
  return disabled.has(method) || disabled.has(`${product}:${method}`);
}

export interface AvailabilityCheckerOptions {
  fragment: Pick<FragmentClient, 'searchRecipient'>;
  redis: Redis;
  /** Key prefix shared with the other read components, e.g. `starsgate:reads:`. */
  prefix: string;
  flight: SingleFlight;
  limiter: ReadLimiter;
  /** TTL of AVAILABLE answers. */
  positiveTtlMs: number;
  /** TTL of the answers about a recipient or a payment method (the error kinds with an `availability` code). */
  negativeTtlMs: number;
  /** Longest a caller waits for Fragment before UNAVAILABLE. */
  deadlineMs: number;
  disabledPaymentMethods?: DisabledPaymentMethods;
  /** In-process cache TTL in front of Redis (default 1 000 ms; 0 disables). */
  memoryTtlMs?: number;
  logger?: Partial<FragmentLogger>;
  now?: () => number;
}

interface Stored {
  code: AvailabilityCode;
  checkedAt: number;
}

export class AvailabilityChecker {
  private readonly cache: RedisJsonCache;
  private readonly memory: LocalTtlCache<Stored>;
  private readonly logger: FragmentLogger;
  private readonly now: () => number;
  private readonly disabled: DisabledPaymentMethods;
  /** Upstream searches made by this process (tests and metrics). */
  upstreamCalls = 0;

  constructor(private readonly options: AvailabilityCheckerOptions) {
    this.cache = new RedisJsonCache(options.redis, options.prefix);
    this.now = options.now ?? Date.now;
    this.memory = new LocalTtlCache<Stored>(options.memoryTtlMs ?? 1_000, 10_000, this.now);
    this.logger = { ...silentLogger, ...options.logger };
    this.disabled = options.disabledPaymentMethods ?? new Set();
  }

  async check(query: AvailabilityQuery): Promise<AvailabilityAnswer> {
    if (
      !offersPaymentMethod(query.product, query.paymentMethod) ||
      isPaymentMethodDisabled(this.disabled, query.product, query.paymentMethod)
    ) {
      return { code: 'PAYMENT_METHOD_UNAVAILABLE', checkedAt: this.now(), source: 'config' };
    }
    const username = query.username.replace(/^@/, '').toLowerCase();
    const key = `avail:${query.product}:${username}`;

    const remembered = this.memory.get(key);
    if (remembered) return { ...remembered, source: 'memory' };

    let stored: Stored | undefined;
    try {
      stored = await this.cache.get<Stored>(key);
    } catch (error) {
      throw new ReadError('UNAVAILABLE', 'internal', 'availability cache unreachable', { cause: error });
    }
    if (stored) {
      this.remember(key, stored);
      return { ...stored, source: 'cache' };
    }

    const flight = this.options.flight.run(key, () => this.lookup(key, query, username));
    const answer = await this.withDeadline(flight);
    this.memory.set(key, answer, this.ttlFor(answer.code));
    return { ...answer, source: 'upstream' };
  }

  private ttlFor(code: AvailabilityCode): number {
    return code === 'AVAILABLE' ? this.options.positiveTtlMs : this.options.negativeTtlMs;
  }

  private remember(key: string, stored: Stored): void {
    const age = this.now() - stored.checkedAt;
    this.memory.set(key, stored, this.ttlFor(stored.code) - age);
  }

  /** The leader's work: budget, one Fragment search, cache the answer. */
  private async lookup(key: string, query: AvailabilityQuery, username: string): Promise<Stored> {
    // A replica may have filled the cache while this one waited for the lock.
    const cached = await this.cache.get<Stored>(key);
    if (cached) return cached;
    await this.options.limiter.acquire({ scope: username });
    let code: AvailabilityCode;
    try {
      this.upstreamCalls += 1;
      await this.options.fragment.searchRecipient(query.product, username, query.quantities ?? query.amount);
      code = 'AVAILABLE';
    } catch (error) {
      // Fragment's business answers about the recipient are results, not failures.
      const answer = error instanceof FragmentError ? FRAGMENT_ERROR_KINDS[error.kind].availability : undefined;
      if (!answer) throw await this.failure(error);
      code = answer;
    }
    const stored: Stored = { code, checkedAt: this.now() };
    const ttl = this.ttlFor(code);
    if (ttl > 0)
      await this.cache.set(key, stored, ttl).catch((error: unknown) => {
        this.logger.warn('availability: could not cache an answer', {
          error: error instanceof Error ? error.message : String(error),
        });
      });
    return stored;
  }

  private async failure(error: unknown): Promise<ReadError> {
    const readError = toReadError(error);
    if (readError.reason === 'upstream_rate_limited') {
      const cooldownMs = await this.options.limiter
        .cooldown(readError.retryAfterMs)
        .catch(() => readError.retryAfterMs);
      this.logger.warn(`availability: Fragment ${readError.reason}, upstream reads paused for ${cooldownMs ?? '?'} ms`);
      return new ReadError(readError.kind, readError.reason, readError.message, {
        retryAfterMs: cooldownMs,
        cause: error,
      });
    }
    this.logger.warn(`availability: Fragment lookup failed (${readError.reason})`, { message: readError.message });
    return readError;
  }

  private withDeadline<T>(promise: Promise<T>): Promise<T> {
    return withReadDeadline(promise, this.options.deadlineMs, toReadError);
  }
}
