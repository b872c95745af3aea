/**
 * Prices from Fragment, cached in Redis and honest about staleness.
 *
 * What is stored (all money as integer strings: nanoGRAM and USDT units):
 *   prices:list             the reference list (each product pack's reference prices, e.g. an
 *                           `update_prices` pack's `referenceQuantity`; tonRate) + fetchedAt; kept without expiry: it is the
 *                           "last known" answer.
 *   prices:<product>:<N>    an `update_prices` product's own price for N (the pack's method)
 *                           + fetchedAt, fresh for `quoteTtlMs`, kept `keepLastKnownMs` as last known.
 *   prices:<product>        a `page_options` product's option prices (the pack's page) + fetchedAt.
 *   (a `face_value` product is priced at its amount: no entry; its USDT worth
 *   uses the list's tonRate)
 * How a product is priced is its Fragment pack's `prices` (products/*.ts), looked up per call.
 *   prices:upstream-down    set for `failureBackoffMs` after a failed fetch, so a broken Fragment
 *                           is not asked again on every request; stale values are served meanwhile.
 *
 * Where an answer comes from, best first: a fresh stored value; a single-flighted Fragment call
 * (budgeted by the shared ReadLimiter); the last known value (`stale: true`); for a Star count
 * Fragment never priced, a value derived from the last known per-unit USD price and tonRate with
 * Fragment's rounding (`stale: true, derived: true`, see price-math.ts), the list fetched first when
 * none is stored or it is stale (outside the read budget, so a spent budget never leaves a count
 * unpriced while Fragment answers); else PRICES_UNAVAILABLE.
 *
 * The worker's refresher calls `refreshList()` periodically so gateway reads stay cache hits; a
 * gateway whose list is older than `staleAfterMs` refreshes it itself (single-flighted).
 */
import type { Redis } from 'ioredis';
import { canonicalQuantities, lineAmount, rowQuantities, type Product, type Quantities } from '@starsgate/domain';
import type { FragmentClient } from '../client';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack, type PriceRead } from '../products';
import { silentLogger, type FragmentLogger } from '../transport';
import {
  currentList,
  faceValuePrice,
  fromQuote,
  pair,
  PricesUnavailableError,
  storedOptions,
  type PriceListAnswer,
  type PricePair,
  type QuoteAnswer,
  type StoredPriceList,
  type StoredOptions,
  type StoredQuote,
  type StoredReferences,
} from './price-entries';
import { gramNanoForUsd, perUnitUsdMicro } from './price-math';
import { ReadError, toReadError, withReadDeadline } from './read-errors';
import type { ReadLimiter } from './read-limits';
import { LocalTtlCache, RedisJsonCache } from './redis-cache';
import type { SingleFlight } from './single-flight';

export interface PriceBookOptions {
  fragment: Pick<FragmentClient, 'quoteQuantity' | 'optionPrices' | 'quantityOptionPrices' | 'tonRate'>;
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
        const references: StoredReferences = {};
        for (const product of FRAGMENT_PRODUCT_NAMES) {
          const read = fragmentPack(product).prices;
          if (read.kind === 'update_prices') {
            const quantity = read.referenceQuantity;
            references[product] = {
              [quantity]: fromQuote(await this.options.fragment.quoteQuantity(product, quantity)),
            };
          } else if (read.kind === 'page_options') {
            references[product] = storedOptions(await this.options.fragment.optionPrices(product));
          } else if (read.kind === 'update_options') {
            references[product] = storedOptions(
              await this.options.fragment.quantityOptionPrices(product, read.reference),
            );
          }
        }
        const tonRate = await this.options.fragment.tonRate();
        const fetchedAt = this.now();
        const list: StoredPriceList = { references, tonRate, fetchedAt };
        await this.cache.set('prices:list', list, 0);
        for (const product of FRAGMENT_PRODUCT_NAMES) {
          const read = fragmentPack(product).prices;
          const prices = references[product];
          if (!prices) continue;
          if (read.kind === 'update_options') continue;
          if (read.kind === 'page_options')
            await this.cache.set(
              `prices:${product}`,
              { options: prices, fetchedAt } satisfies StoredOptions,
              this.keepLastKnownMs,
            );
          else
            for (const [quantity, price] of Object.entries(prices))
              await this.cache.set(
                `prices:${product}:${quantity}`,
                { ...price, fetchedAt } satisfies StoredQuote,
                this.keepLastKnownMs,
              );
        }
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
    const stored = currentList(await this.cache.get<StoredPriceList>('prices:list'));
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
    const byProduct = {} as Record<Product, Record<string, PricePair>>;
    for (const product of FRAGMENT_PRODUCT_NAMES) {
      const prices =
        fragmentPack(product).prices.kind === 'face_value'
          ? { '1': faceValuePrice(1, stored.tonRate) }
          : (stored.references[product] ?? {});
      byProduct[product] = Object.fromEntries(
        Object.entries(prices).map(([quantity, price]) => [quantity, pair(price)]),
      );
    }
    const answer: PriceListAnswer = {
      byProduct,
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

  /**
   * An exact quote for an order line's quantities, or a one-quantity product's amount (its
   * one quantity), validated by the caller.
   */
  async quote(product: Product, order: number | Quantities): Promise<QuoteAnswer> {
    const quantities = typeof order === 'number' ? rowQuantities({ product, amount: order }) : order;
    const memoryKey = `quote:${product}:${canonicalQuantities({ product, quantities })}`;
    const remembered = this.memory.get(memoryKey) as QuoteAnswer | undefined;
    if (remembered) return remembered;
    const answer = await this.quoters[fragmentPack(product).prices.kind](product, quantities);
    const age = this.now() - answer.updatedAt;
    this.memory.set(memoryKey, answer, answer.stale ? this.failureBackoffMs : this.quoteTtlMs - age);
    return answer;
  }

  /** How each kind of price read (a product's Fragment pack names its kind) answers a quote. */
  private readonly quoters: Record<
    PriceRead['kind'],
    (product: Product, quantities: Quantities) => Promise<QuoteAnswer>
  > = {
    update_prices: (product, quantities) => this.perQuantityQuote(product, lineAmount({ product, quantities })),
    page_options: (product, quantities) => this.optionQuote(product, lineAmount({ product, quantities })),
    update_options: (product, quantities) => this.quantityOptionQuote(product, quantities),
    face_value: (product, quantities) => this.faceValueQuote(product, lineAmount({ product, quantities })),
  };

  /** An `update_prices` product: Fragment prices any quantity; a count it never priced is derived. */
  private async perQuantityQuote(product: Product, quantity: number): Promise<QuoteAnswer> {
    const read = fragmentPack(product).prices;
    if (read.kind !== 'update_prices') throw new TypeError(`${product} is not priced per quantity`);
    const key = `prices:${product}:${quantity}`;
    const stored = await this.cache.get<StoredQuote>(key);
    if (stored && this.now() - stored.fetchedAt < this.quoteTtlMs) return this.answer(product, quantity, stored, false);

    const fresh = await this.fetchFresh(key, product, async () => {
      await this.options.limiter.acquire();
      const quote = await this.options.fragment.quoteQuantity(product, quantity);
      const value: StoredQuote = { ...fromQuote(quote), fetchedAt: this.now() };
      await this.cache.set(key, value, this.keepLastKnownMs);
      return value;
    });
    if (fresh) return this.answer(product, quantity, fresh, false);
    if (stored) return this.answer(product, quantity, stored, true);

    // Fragment did not quote this count (often only the read budget spent, as under a burst of
    // purchases for many counts): derive it from the list, fetched now if none is stored.
    const list = await this.freshList();
    const reference = list?.references[product]?.[String(read.referenceQuantity)];
    if (!list || !reference) throw new PricesUnavailableError();
    // Derived (rule 2 of price-math.ts): never priced by Fragment for this exact count.
    const usdMicro = perUnitUsdMicro(BigInt(reference.usdtUnits), read.referenceQuantity, quantity);
    const derived: StoredQuote = {
      gramNano: gramNanoForUsd(usdMicro, list.tonRate).toString(),
      usdtUnits: usdMicro.toString(),
      fetchedAt: list.fetchedAt,
    };
    return { ...this.answer(product, quantity, derived, true), derived: true };
  }

  /** A `page_options` product: one price per option of its page. */
  private async optionQuote(product: Product, option: number): Promise<QuoteAnswer> {
    const key = `prices:${product}`;
    const value = String(option);
    const stored = await this.cache.get<StoredOptions>(key);
    const priced = stored?.options?.[value] ? stored : undefined;
    if (priced && this.now() - priced.fetchedAt < this.quoteTtlMs)
      return this.answer(product, option, { ...priced.options[value]!, fetchedAt: priced.fetchedAt }, false);

    const fresh = await this.fetchFresh(key, product, async () => {
      await this.options.limiter.acquire();
      const prices = await this.options.fragment.optionPrices(product);
      const entry: StoredOptions = { options: storedOptions(prices), fetchedAt: this.now() };
      await this.cache.set(key, entry, this.keepLastKnownMs);
      return entry;
    });
    const freshPrice = fresh?.options[value];
    if (fresh && freshPrice) return this.answer(product, option, { ...freshPrice, fetchedAt: fresh.fetchedAt }, false);
    // Last known: the newer of the product's entry and the list.
    const list = currentList(await this.cache.get<StoredPriceList>('prices:list'));
    const listed = list?.references[product]?.[value];
    const candidates = [
      priced && { ...priced.options[value]!, fetchedAt: priced.fetchedAt },
      list && listed && { ...listed, fetchedAt: list.fetchedAt },
    ];
    const best = candidates.filter((c): c is StoredQuote => !!c).sort((a, b) => b.fetchedAt - a.fetchedAt)[0];
    if (!best) throw new PricesUnavailableError();
    return this.answer(product, option, best, true);
  }

  /**
   * An `update_options` product (the giveaway): Fragment prices the options for these quantities;
   * the order's option is looked up among them. Never derived: without Fragment, the last known
   * price of these exact quantities (stale), else PRICES_UNAVAILABLE.
   */
  private async quantityOptionQuote(product: Product, quantities: Quantities): Promise<QuoteAnswer> {
    const read = fragmentPack(product).prices;
    if (read.kind !== 'update_options') throw new TypeError(`${product} is not priced by options per quantity`);
    const amount = lineAmount({ product, quantities });
    const key = `prices:${product}:${canonicalQuantities({ product, quantities })}`;
    const stored = await this.cache.get<StoredQuote>(key);
    if (stored && this.now() - stored.fetchedAt < this.quoteTtlMs) return this.answer(product, amount, stored, false);
    const fresh = await this.fetchFresh(key, product, async () => {
      await this.options.limiter.acquire();
      const options = await this.options.fragment.quantityOptionPrices(product, quantities);
      const price = options[quantities[read.optionQuantity] ?? Number.NaN];
      if (!price)
        throw new Error(`Fragment ${read.method}: no price for ${read.optionField} ${quantities[read.optionQuantity]}`);
      const value: StoredQuote = { ...fromQuote(price), fetchedAt: this.now() };
      await this.cache.set(key, value, this.keepLastKnownMs);
      return value;
    });
    if (fresh) return this.answer(product, amount, fresh, false);
    if (stored) return this.answer(product, amount, stored, true);
    throw new PricesUnavailableError();
  }

  /**
   * A `face_value` product, priced at its amount: the GRAM price is `amount` exactly, asked of
   * no one; the USDT figure is its worth at the list's tonRate (as stale as the list).
   */
  private async faceValueQuote(product: Product, amount: number): Promise<QuoteAnswer> {
    const list = await this.freshList();
    if (!list) throw new PricesUnavailableError();
    const value: StoredQuote = { ...faceValuePrice(amount, list.tonRate), fetchedAt: list.fetchedAt };
    return this.answer(product, amount, value, this.now() - list.fetchedAt >= this.staleAfterMs);
  }

  /**
   * The stored list, refreshed first when older than `staleAfterMs` unless Fragment is backing off
   * (single-flighted and outside the read budget, as the refresher's: at most one call per
   * `staleAfterMs`); undefined when none was ever stored and Fragment cannot give one now.
   */
  private async freshList(): Promise<StoredPriceList | undefined> {
    const list = currentList(await this.cache.get<StoredPriceList>('prices:list'));
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
