import {
  formatUnits,
  GRAM_DECIMALS,
  parseUnits,
  productDescription,
  USDT_DECIMALS,
  type PaymentMethod,
  type Product,
  type Quantities,
} from '@starsgate/domain';
import type { WorkerConfig } from '../../config';
import type { PolicyViolation } from './payment-policy';
import type { PriceQuoter } from './price-precheck';

/**
 * The spend cap (MAX_SPEND_GRAM / MAX_SPEND_USDT) judged before any Fragment call (search, init,
 * link), so an order the policy would refuse after Fragment's invoice never creates one
 * (docs/security.md, attack 4; issue 36 #19d). A face-value product (priced at its amount) is
 * judged by its amount alone; a quoted product by the price book's quote when one is loaded,
 * less the price tolerance, so an order the exact check after Fragment's request would accept is
 * never refused here. Undefined: no refusal (within the cap, or nothing to judge by yet: the
 * exact check after Fragment's request still runs).
 */
export async function spendCapViolation(
  prices: PriceQuoter | undefined,
  config: Pick<WorkerConfig, 'maxSpendGramNano' | 'maxSpendUsdtUnits' | 'priceToleranceBps'>,
  order: { product: Product; amount: number; quantities?: Quantities; paymentMethod: PaymentMethod },
): Promise<PolicyViolation | undefined> {
  const usdt = order.paymentMethod === 'usdt';
  const decimals = usdt ? USDT_DECIMALS : GRAM_DECIMALS;
  const cap = usdt ? config.maxSpendUsdtUnits : config.maxSpendGramNano;
  let least: bigint;
  let basis: string;
  if (productDescription(order.product).pricing === 'face_value' && !usdt) {
    least = BigInt(order.amount) * 10n ** BigInt(GRAM_DECIMALS);
    basis = 'its amount';
  } else {
    if (!prices) return undefined;
    let quoted: string;
    try {
      const quote = await prices.quote(order.product, order.quantities ?? order.amount);
      quoted = usdt ? quote.prices.usdt : quote.prices.gram;
    } catch {
      return undefined;
    }
    least = (parseUnits(quoted, decimals) * BigInt(10_000 - config.priceToleranceBps)) / 10_000n;
    basis = `the price book (${quoted}, less the ${config.priceToleranceBps} bps tolerance)`;
  }
  if (least <= cap) return undefined;
  const coin = usdt ? 'USDT' : 'GRAM';
  return {
    check: 'spend_cap',
    message: `the order costs at least ${formatUnits(least, decimals)} ${coin} by ${basis}, over MAX_SPEND_${coin} (${formatUnits(cap, decimals)} ${coin}); Fragment was not asked`,
  };
}
