/**
 * Prices from Fragment, cached in Redis and honest about staleness.
 *
 * What is stored (all money as integer strings: nanoGRAM and USDT units):
 *   prices:list             the reference list (50 Stars, Premium 3/6/12, tonRate) + fetchedAt;
 *                           kept without expiry: it is the "last known" answer.
 *   prices:stars:<N>        Fragment's own price for N Stars (`updateStarsPrices`) + fetchedAt,
 *                           fresh for `quoteTtlMs`, kept `keepLastKnownMs` as last known.
 *   prices:premium          the three Premium prices from `/premium/gift` + fetchedAt.
 *   (a GRAM top-up is priced at its amount: no entry; its USDT worth uses the list's tonRate)
 *   prices:upstream-down    set for `failureBackoffMs` after a failed fetch, so a broken Fragment
 *                           is not asked again on every request; stale values are served meanwhile.
 *
 * Where an answer comes from, best first: a fresh stored value; a single-flighted Fragment call
 * (budgeted by the shared ReadLimiter); the last known value (`stale: true`); for a Star count
 * Fragment never priced, a value derived from the last known per-star USD price and tonRate with
 * Fragment's rounding (`stale: true, derived: true`, see price-math.ts), the list fetched first when
 * none is stored or it is stale (outside the read budget, so a spent budget never leaves a count
 * unpriced while Fragment answers); else PRICES_UNAVAILABLE.
 *
 * The worker's refresher calls `refreshList()` periodically so gateway reads stay cache hits; a
 * gateway whose list is older than `staleAfterMs` refreshes it itself (single-flighted).
 */
import type { Redis } from 'ioredis';
import { GRAM_DECIMALS, parseUnits, type Product } from '@starsgate/domain';
import type { FragmentClient } from '../client';
import { ROUTES } from '../routes';
import { silentLogger, type FragmentLogger } from '../transport';
import type { PremiumMonths, PriceQuote } from '../types';
import { formatGram, formatUsdt, gramNanoForUsd, starsUsdMicro, usdtUnitsForGram, usdToUsdtUnits } from './price-math';
import { ReadError, toReadError, withReadDeadline } from './read-errors';
import type { ReadLimiter } from './read-limits';
import { LocalTtlCache, RedisJsonCache } from './redis-cache';
import type { SingleFlight } from './single-flight';

/** One price in integer units (strings, so the value survives JSON). */
export interface StoredPrice {
  gramNano: string;
  usdtUnits: string;
}

interface StoredQuote extends StoredPrice {
  fetchedAt: number;
}

interface StoredPremium {
  premium: Record<'3' | '6' | '12', StoredPrice>;
  fetchedAt: number;
}

export interface StoredPriceList {
  stars50: StoredPrice;
  premium: Record<'3' | '6' | '12', StoredPrice>;
  /** USD per TON as Fragment wrote it (for derived quotes). */
  tonRate: string;
  fetchedAt: number;
}

/** Decimal strings for the wire. */
export interface PricePair {
  gram: string;
  usdt: string;
}

export interface PriceListAnswer {
  stars: { '50': PricePair };
  premium: Record<'3' | '6' | '12', PricePair>;
  stale: boolean;
  updatedAt: number;
}

export interface QuoteAnswer {
  product: Product;
  amount: number;
  prices: PricePair;
  stale: boolean;
  derived: boolean;
  updatedAt: number;
}

export class PricesUnavailableError extends Error {
  constructor(cause?: unknown) {
    super('no price was ever fetched and Fragment cannot answer now', cause === undefined ? undefined : { cause });
    this.name = 'PricesUnavailableError';
  }
}

export interface PriceBookOptions {
  fragment: Pick<FragmentClient, 'quoteStars' | 'premiumPrices' | 'tonRate'>;
  redis: Redis;
  prefix: string;
  flight: SingleFlight;
  limiter: ReadLimiter;
  /** A stored quote younger than this is served without asking Fragment (default 30 s). */
  quoteTtlMs?: number;
  /** The list counts as stale once older than this (default 300 s); the gateway then refreshes it itself. */
  staleAfterMs?: number;
  /** How long per-quantity quotes stay as "last known" (default 24 h). */
  keepLastKnownMs?: number;
  /** After a failed fetch, serve stale values without asking Fragment for this long (default 5 s). */
  failureBackoffMs?: number;
  /** Longest a request waits for Fragment before falling back to the last known value (default 5 s). */
  deadlineMs?: number;
  /** In-process cache in front of Redis (default 1 000 ms; 0 disables). */
  memoryTtlMs?: number;
  logger?: Partial<FragmentLogger>;
  now?: () => number;
}

const MONTHS = ['3', '6', '12'] as const;

function pair(price: StoredPrice): PricePair {
  return { gram: formatGram(BigInt(price.gramNano)), usdt: formatUsdt(BigInt(price.usdtUnits)) };
}

function fromQuote(quote: PriceQuote): StoredPrice {
  return { gramNano: quote.gramNano.toString(), usdtUnits: usdToUsdtUnits(quote.usd).toString() };
}

export class PriceBook {
  private readonly cache: RedisJsonCache;
  private readonly memory: LocalTtlCache<unknown>;
  private readonly logger: FragmentLogger;
  private readonly now: () => number;
  private readonly quoteTtlMs: number;
  private readonly staleAfterMs: number;
  private readonly keepLastKnownMs: number;
  private readonly failureBackoffMs: number;
  private readonly deadlineMs: number;

  constructor(private readonly options: PriceBookOptions) {
    this.cache = new RedisJsonCache(options.redis, options.prefix);
    this.now = options.now ?? Date.now;
    this.memory = new LocalTtlCache<unknown>(options.memoryTtlMs ?? 1_000, 1_000, this.now);
    this.logger = { ...silentLogger, ...options.logger };
    this.quoteTtlMs = options.quoteTtlMs ?? 30_000;
    this.staleAfterMs = options.staleAfterMs ?? 300_000;
    this.keepLastKnownMs = options.keepLastKnownMs ?? 86_400_000;
    this.failureBackoffMs = options.failureBackoffMs ?? 5_000;
    this.deadlineMs = options.deadlineMs ?? 5_000;
  }

  // ------------------------------------------------------------------ reference list

  /**
   * Fetches the reference list from Fragment and stores it (the worker's refresher). Throws a
   * ReadError when Fragment cannot answer; the previous list stays as last known.
   */
  async refreshList(): Promise<StoredPriceList> {
    return this.options.flight.run('prices:list', async () => {
      try {
        await this.options.limiter.acquire({ budget: false });
        const stars50 = await this.options.fragment.quoteStars(50);
        const premium = await this.options.fragment.premiumPrices();
        const tonRate = await this.options.fragment.tonRate();
        const fetchedAt = this.now();
        const list: StoredPriceList = {
          stars50: fromQuote(stars50),
          premium: { '3': fromQuote(premium[3]), '6': fromQuote(premium[6]), '12': fromQuote(premium[12]) },
          tonRate,
          fetchedAt,
        };
        await this.cache.set('prices:list', list, 0);
        await this.cache.set(
          'prices:premium',
          { premium: list.premium, fetchedAt } satisfies StoredPremium,
          this.keepLastKnownMs,
        );
        await this.cache.set(
          'prices:stars:50',
          { ...list.stars50, fetchedAt } satisfies StoredQuote,
          this.keepLastKnownMs,
        );
        await this.cache.delete('prices:upstream-down');
        this.memory.clear();
        return list;
      } catch (error) {
        throw await this.failed('list', error);
      }
    });
  }

  /** The reference list; `stale` when Fragment could not refresh a list older than `staleAfterMs`. */
  async list(): Promise<PriceListAnswer> {
    const remembered = this.memory.get('list') as PriceListAnswer | undefined;
    if (remembered) return remembered;
    const stored = await this.cache.get<StoredPriceList>('prices:list');
    if (stored && this.now() - stored.fetchedAt < this.staleAfterMs) return this.rememberList(stored, false);

    let fresh: StoredPriceList | undefined;
    if (!(await this.upstreamDown())) {
      fresh = await this.withDeadline(this.refreshList()).catch((error: unknown) => {
        this.logger.info(
          `prices: list refresh failed, ${stored ? 'serving the last known list' : 'nothing known yet'}`,
          {
            reason: toReadError(error).reason,
          },
        );
        return undefined;
      });
    }
    if (fresh) return this.rememberList(fresh, false);
    if (!stored) throw new PricesUnavailableError();
    return this.rememberList(stored, true);
  }

  private rememberList(stored: StoredPriceList, stale: boolean): PriceListAnswer {
    const answer: PriceListAnswer = {
      stars: { '50': pair(stored.stars50) },
      premium: { '3': pair(stored.premium['3']), '6': pair(stored.premium['6']), '12': pair(stored.premium['12']) },
      stale,
      updatedAt: stored.fetchedAt,
    };
    // A stale answer is remembered briefly too: it spares Redis while Fragment is down.
    this.memory.set(
      'list',
      answer,
      stale ? this.failureBackoffMs : this.staleAfterMs - (this.now() - stored.fetchedAt),
    );
    return answer;
  }

  // ------------------------------------------------------------------ exact quotes

  /** An exact quote for `amount` Stars, Premium months or top-up GRAM (validated by the caller). */
  async quote(product: Product, amount: number): Promise<QuoteAnswer> {
    const memoryKey = `quote:${product}:${amount}`;
    const remembered = this.memory.get(memoryKey) as QuoteAnswer | undefined;
    if (remembered) return remembered;
    const answer = ROUTES[product].pricedAtFaceValue
      ? await this.faceValueQuote(product, amount)
      : product === 'stars'
        ? await this.starsQuote(amount)
        : await this.premiumQuote(amount);
    const age = this.now() - answer.updatedAt;
    this.memory.set(memoryKey, answer, answer.stale ? this.failureBackoffMs : this.quoteTtlMs - age);
    return answer;
  }

  private async starsQuote(quantity: number): Promise<QuoteAnswer> {
    const key = `prices:stars:${quantity}`;
    const stored = await this.cache.get<StoredQuote>(key);
    if (stored && this.now() - stored.fetchedAt < this.quoteTtlMs) return this.answer('stars', quantity, stored, false);

    const fresh = await this.fetchFresh(key, 'stars', async () => {
      await this.options.limiter.acquire();
      const quote = await this.options.fragment.quoteStars(quantity);
      const value: StoredQuote = { ...fromQuote(quote), fetchedAt: this.now() };
      await this.cache.set(key, value, this.keepLastKnownMs);
      return value;
    });
    if (fresh) return this.answer('stars', quantity, fresh, false);
    if (stored) return this.answer('stars', quantity, stored, true);

    // Fragment did not quote this count (often only the read budget spent, as under a burst of
    // purchases for many counts): derive it from the list, fetched now if none is stored.
    const list = await this.currentList();
    if (!list) throw new PricesUnavailableError();
    // Derived (rule 2 of price-math.ts): never priced by Fragment for this exact count.
    const usdMicro = starsUsdMicro(BigInt(list.stars50.usdtUnits), 50, quantity);
    const derived: StoredQuote = {
      gramNano: gramNanoForUsd(usdMicro, list.tonRate).toString(),
      usdtUnits: usdMicro.toString(),
      fetchedAt: list.fetchedAt,
    };
    return { ...this.answer('stars', quantity, derived, true), derived: true };
  }

  private async premiumQuote(months: number): Promise<QuoteAnswer> {
    const month = String(months) as '3' | '6' | '12';
    if (!MONTHS.includes(month)) throw new RangeError('premium months must be 3, 6 or 12');
    const stored = await this.cache.get<StoredPremium>('prices:premium');
    if (stored && this.now() - stored.fetchedAt < this.quoteTtlMs)
      return this.answer('premium', months, { ...stored.premium[month], fetchedAt: stored.fetchedAt }, false);

    const fresh = await this.fetchFresh('prices:premium', 'premium', async () => {
      await this.options.limiter.acquire();
      const prices = await this.options.fragment.premiumPrices();
      const value: StoredPremium = {
        premium: { '3': fromQuote(prices[3 as PremiumMonths]), '6': fromQuote(prices[6]), '12': fromQuote(prices[12]) },
        fetchedAt: this.now(),
      };
      await this.cache.set('prices:premium', value, this.keepLastKnownMs);
      return value;
    });
    if (fresh) return this.answer('premium', months, { ...fresh.premium[month], fetchedAt: fresh.fetchedAt }, false);
    // Last known: the newer of the premium entry and the list.
    const list = await this.cache.get<StoredPriceList>('prices:list');
    const candidates = [
      stored && { ...stored.premium[month], fetchedAt: stored.fetchedAt },
      list && { ...list.premium[month], fetchedAt: list.fetchedAt },
    ];
    const best = candidates.filter((c): c is StoredQuote => !!c).sort((a, b) => b.fetchedAt - a.fetchedAt)[0];
    if (!best) throw new PricesUnavailableError();
    return this.answer('premium', months, best, true);
  }

  /**
   * A product priced at its amount (the GRAM top-up): the GRAM price is `amount` exactly, asked of
   * no one; the USDT figure is its worth at the list's tonRate (as stale as the list).
   */
  private async faceValueQuote(product: Product, amount: number): Promise<QuoteAnswer> {
    const list = await this.currentList();
    if (!list) throw new PricesUnavailableError();
    const value: StoredQuote = {
      gramNano: parseUnits(String(amount), GRAM_DECIMALS).toString(),
      usdtUnits: usdtUnitsForGram(amount, list.tonRate).toString(),
      fetchedAt: list.fetchedAt,
    };
    return this.answer(product, amount, value, this.now() - list.fetchedAt >= this.staleAfterMs);
  }

  /**
   * The stored list, refreshed first when older than `staleAfterMs` unless Fragment is backing off
   * (single-flighted and outside the read budget, as the refresher's: at most one call per
   * `staleAfterMs`); undefined when none was ever stored and Fragment cannot give one now.
   */
  private async currentList(): Promise<StoredPriceList | undefined> {
    const list = await this.cache.get<StoredPriceList>('prices:list');
    if (list && this.now() - list.fetchedAt < this.staleAfterMs) return list;
    if (await this.upstreamDown()) return list;
    return (await this.withDeadline(this.refreshList()).catch(() => undefined)) ?? list;
  }

  private answer(product: Product, amount: number, stored: StoredQuote, stale: boolean): QuoteAnswer {
    return { product, amount, prices: pair(stored), stale, derived: false, updatedAt: stored.fetchedAt };
  }

  /** One single-flighted Fragment fetch, or undefined when Fragment cannot answer now. */
  private async fetchFresh<T>(key: string, what: string, fetch: () => Promise<T>): Promise<T | undefined> {
    if (await this.upstreamDown()) return undefined;
    try {
      return await this.withDeadline(
        this.options.flight.run(key, async () => {
          try {
            return await fetch();
          } catch (error) {
            throw await this.failed(what, error);
          }
        }),
      );
    } catch (error) {
      this.logger.info(`prices: ${what} quote not fetched, falling back`, { reason: toReadError(error).reason });
      return undefined;
    }
  }

  // ------------------------------------------------------------------ failures

  private async upstreamDown(): Promise<boolean> {
    if ((await this.cache.ttlMs('prices:upstream-down')) !== undefined) return true;
    return (await this.options.limiter.cooldownRemainingMs()) > 0;
  }

  /** Records a failed fetch (failure backoff; shared cooldown on a Fragment 429) and returns it as a ReadError. */
  private async failed(what: string, error: unknown): Promise<ReadError> {
    const readError = toReadError(error);
    // Our own budget being spent says nothing about Fragment's health.
    if (readError.reason === 'global_budget' || readError.reason === 'username_budget') return readError;
    try {
      if (readError.reason === 'upstream_rate_limited') await this.options.limiter.cooldown(readError.retryAfterMs);
      await this.cache.set('prices:upstream-down', { reason: readError.reason, at: this.now() }, this.failureBackoffMs);
    } catch {
      // Redis trouble: the fallback below still works from what was read.
    }
    this.logger.warn(`prices: Fragment ${what} fetch failed (${readError.reason})`, { message: readError.message });
    return readError;
  }

  private withDeadline<T>(promise: Promise<T>): Promise<T> {
    return withReadDeadline(promise, this.deadlineMs);
  }
}
