/**
 * The price book's entries (price-book.ts): what is stored in Redis (integer units as strings, so
 * they survive JSON), what it answers (decimal strings for the wire), and the conversions between
 * them and Fragment's quotes.
 */
import { GRAM_DECIMALS, parseUnits, type Product } from '@starsgate/domain';
import type { PriceQuote } from '../types';
import { formatGram, formatUsdt, usdtUnitsForGram, usdToUsdtUnits } from './price-math';

/** One price in integer units (strings, so the value survives JSON). */
export interface StoredPrice {
  gramNano: string;
  usdtUnits: string;
}

export interface StoredQuote extends StoredPrice {
  fetchedAt: number;
}

/** A `page_options` product's prices by option (its `optionField`'s values). */
export interface StoredOptions {
  options: Record<string, StoredPrice>;
  fetchedAt: number;
}

/** Reference prices by product, then by quantity (`{ <product>: { '<quantity>': … } }`). */
export type StoredReferences = Partial<Record<Product, Record<string, StoredPrice>>>;

export interface StoredPriceList {
  references: StoredReferences;
  /** USD per TON as Fragment wrote it (for derived quotes). */
  tonRate: string;
  fetchedAt: number;
}

/** A list stored before reference prices were keyed by product has no `references`: not read, refreshed. */
export function currentList(stored: StoredPriceList | undefined): StoredPriceList | undefined {
  return stored?.references ? stored : undefined;
}

/** Decimal strings for the wire. */
export interface PricePair {
  gram: string;
  usdt: string;
}

export interface PriceListAnswer {
  /** Every product's reference prices by quantity (a `face_value` product: 1 GRAM's worth). */
  byProduct: Record<Product, Record<string, PricePair>>;
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

/** A stored price as decimal strings for the wire. */
export function pair(price: StoredPrice): PricePair {
  return { gram: formatGram(BigInt(price.gramNano)), usdt: formatUsdt(BigInt(price.usdtUnits)) };
}

/** Fragment's quote as stored: nanoGRAM, and its USD as USDT units. */
export function fromQuote(quote: PriceQuote): StoredPrice {
  return { gramNano: quote.gramNano.toString(), usdtUnits: usdToUsdtUnits(quote.usd).toString() };
}

/** Each option's quote as stored. */
export function storedOptions(prices: Record<number, PriceQuote>): Record<string, StoredPrice> {
  return Object.fromEntries(Object.entries(prices).map(([option, quote]) => [option, fromQuote(quote)]));
}

/** A `face_value` product's price: `amount` whole GRAM, its USDT worth at `tonRate`. */
export function faceValuePrice(amount: number, tonRate: string): StoredPrice {
  return {
    gramNano: parseUnits(String(amount), GRAM_DECIMALS).toString(),
    usdtUnits: usdtUnitsForGram(amount, tonRate).toString(),
  };
}
