import { GRAM_DECIMALS, parseUnits, USDT_DECIMALS, type Product, type PaymentMethod } from '@starsgate/domain';
import type { PriceBook } from '@starsgate/fragment';
import type { WorkerConfig } from '../../config';
import { compareFunds, type Balances, type FundsResult } from './funds-check';

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
  order: { product: Product; amount: number; paymentMethod: PaymentMethod },
  readBalances: () => Promise<Balances>,
): Promise<PriceBookCheck> {
  let quote;
  try {
    quote = await prices.quote(order.product, order.amount);
  } catch {
    return { kind: 'unpriced' };
  }
  const bookPrice =
    order.paymentMethod === 'gram'
      ? parseUnits(quote.prices.gram, GRAM_DECIMALS)
      : parseUnits(quote.prices.usdt, USDT_DECIMALS);
  const least = lowerBound(bookPrice, config.priceToleranceBps);
  const need = order.paymentMethod === 'gram' ? { gram: least, usdt: 0n } : { gram: 0n, usdt: least };
  return { kind: 'priced', funds: compareFunds(await readBalances(), need, config.gramFeeReserveNano), bookPrice };
}
