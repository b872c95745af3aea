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

/**
 * Whether the payer can afford the order by the price book, before any Fragment call (search, init,
 * link) spends the operator's login on it (docs/security.md, attack 4). Judged against the
 * least Fragment may ask within the price tolerance, plus the GRAM fee reserve, so a wallet that the
 * exact check after Fragment's request would accept is never refused here. GRAM orders need the
 * GRAM; USDT orders the USDT and the GRAM fee reserve (the exact jetton gas is checked once known).
 * Undefined when the price book cannot answer: the exact check after Fragment's request still runs.
 */
export async function checkFundsByPriceBook(
  prices: PriceQuoter,
  config: Pick<WorkerConfig, 'priceToleranceBps' | 'gramFeeReserveNano'>,
  order: { product: Product; amount: number; paymentMethod: PaymentMethod },
  readBalances: () => Promise<Balances>,
): Promise<FundsResult | undefined> {
  let quote;
  try {
    quote = await prices.quote(order.product, order.amount);
  } catch {
    return undefined;
  }
  const need =
    order.paymentMethod === 'gram'
      ? { gram: lowerBound(parseUnits(quote.prices.gram, GRAM_DECIMALS), config.priceToleranceBps), usdt: 0n }
      : { gram: 0n, usdt: lowerBound(parseUnits(quote.prices.usdt, USDT_DECIMALS), config.priceToleranceBps) };
  return compareFunds(await readBalances(), need, config.gramFeeReserveNano);
}
