import {
  GRAM_DECIMALS,
  parseUnits,
  USDT_DECIMALS,
  type Product,
  type PaymentMethod,
  type Quantities,
} from '@starsgate/domain';
import type { PriceBook } from '@starsgate/fragment';
import type { WorkerConfig } from '../../config';
import { compareFunds, type Balances, type FundsNeed, type FundsResult } from './funds-check';

/** The price book's answer for one order, as the pre-check needs it. */
export type PriceQuoter = Pick<PriceBook, 'quote'>;

/** `amount` less the price tolerance: the least Fragment's request can ask and still pass the policy. */
function lowerBound(amount: bigint, toleranceBps: number): bigint {
  return (amount * BigInt(10_000 - toleranceBps)) / 10_000n;
}

/** The price book's verdict before any Fragment call: its price for the order, and the funds against it. */
export type PriceBookCheck =
  | { kind: 'unpriced' }
  | {
      kind: 'priced';
      funds: FundsResult;
      /** The book's price of the order in its payment currency's base units (nanoGRAM or USDT units). */
      bookPrice: bigint;
    };

/**
 * Whether the payer can afford the order by the price book, before any Fragment call (search, init,
 * link) spends the operator's login on it (docs/security.md, attack 4). Judged against the
 * least Fragment may ask within the price tolerance, plus the GRAM fee reserve, so a wallet that the
 * exact check after Fragment's request would accept is never refused here. GRAM orders need the
 * GRAM; USDT orders the USDT and the GRAM fee reserve (the exact jetton gas is checked once known).
 * `unpriced` when the price book cannot answer: the caller refuses the order (attack 19e).
 */
export async function checkFundsByPriceBook(
  prices: PriceQuoter,
  config: Pick<WorkerConfig, 'priceToleranceBps' | 'gramFeeReserveNano'>,
  order: { product: Product; amount: number; quantities?: Quantities; paymentMethod: PaymentMethod },
  readBalances: () => Promise<Balances>,
): Promise<PriceBookCheck> {
  const bookPrice = await bookPriceOf(prices, order);
  if (bookPrice === undefined) return { kind: 'unpriced' };
  return {
    kind: 'priced',
    funds: compareFunds(await readBalances(), leastNeed(bookPrice, order, config), config.gramFeeReserveNano),
    bookPrice,
  };
}

/** The price book's price of an order in its payment currency's base units; undefined when it cannot answer. */
async function bookPriceOf(
  prices: PriceQuoter,
  order: { product: Product; amount: number; quantities?: Quantities; paymentMethod: PaymentMethod },
): Promise<bigint | undefined> {
  let quote;
  try {
    quote = await prices.quote(order.product, order.quantities ?? order.amount);
  } catch {
    return undefined;
  }
  return order.paymentMethod === 'gram'
    ? parseUnits(quote.prices.gram, GRAM_DECIMALS)
    : parseUnits(quote.prices.usdt, USDT_DECIMALS);
}

function leastNeed(
  bookPrice: bigint,
  order: { paymentMethod: PaymentMethod },
  config: Pick<WorkerConfig, 'priceToleranceBps'>,
): FundsNeed {
  const least = lowerBound(bookPrice, config.priceToleranceBps);
  return order.paymentMethod === 'gram' ? { gram: least, usdt: 0n } : { gram: 0n, usdt: least };
}

/**
 * The least an order Fragment has not priced yet will need by the price book (nothing when the
 * book cannot price it: that order is refused itself).
 */
export async function leastNeedByPriceBook(
  prices: PriceQuoter,
  config: Pick<WorkerConfig, 'priceToleranceBps'>,
  order: { product: Product; amount: number; quantities?: Quantities; paymentMethod: PaymentMethod },
): Promise<FundsNeed> {
  const bookPrice = await bookPriceOf(prices, order);
  return bookPrice === undefined ? { gram: 0n, usdt: 0n } : leastNeed(bookPrice, order, config);
}
