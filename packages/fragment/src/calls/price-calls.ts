/**
 * Fragment's prices, each read the way its product's pack says (docs/fragment-protocol.md §9).
 * The caller holds the flow: these reads move or read the page's flow state.
 */
import { GRAM_DECIMALS, productDescription, type Quantities } from '@starsgate/domain';
import { parseAmountToNano } from '../amounts';
import { raiseBusinessError } from '../business-errors';
import { FragmentError } from '../errors';
import { echoFlowState } from '../flow-state';
import { parseAjInit, parseCurPrice, parseOptionPrices } from '../html-parsing';
import { fragmentPack } from '../products';
import { orderQuantities, validateAmount } from '../request-validation';
import type { FragmentProduct, PriceQuote } from '../types';
import type { CallContext } from './call-context';
import { updatePrices, updatePricesRead } from './flow-calls';
import { statusPageProduct } from './status-page';

/** A product's `update_prices` read: the current price of `quantity` (binding only at init). */
export async function quoteQuantity(
  context: CallContext,
  product: FragmentProduct,
  quantity: number,
): Promise<PriceQuote> {
  validateAmount(product, quantity);
  const prices = updatePricesRead(product);
  const json = await updatePrices(context, product, orderQuantities(product, quantity));
  const html = typeof json.cur_price === 'string' ? json.cur_price : undefined;
  const price = html !== undefined ? parseCurPrice(html) : undefined;
  if (!price)
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${prices.method}: no readable cur_price`, {
      method: prices.method,
    });
  return { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
}

/**
 * A product's `page_options` prices (the radios of its page), one per option its domain pack
 * sells; an option without a readable price is a format error.
 */
export async function optionPrices(
  context: CallContext,
  product: FragmentProduct,
): Promise<Record<number, PriceQuote>> {
  const pack = fragmentPack(product);
  if (pack.prices.kind !== 'page_options') throw new TypeError(`${product} is not priced by page options`);
  const html = await context.api.loadPage(product);
  const options = parseOptionPrices(html, pack.prices.optionField);
  const result: Record<number, PriceQuote> = {};
  for (const value of amountChoices(product)) {
    const price = options.get(value);
    if (!price)
      throw new FragmentError(
        'UNEXPECTED_RESPONSE',
        `Fragment ${pack.page}: no price for ${pack.prices.optionField} ${value}`,
        { method: `GET ${pack.page}` },
      );
    result[value] = { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
  }
  return result;
}

/**
 * A product's `update_options` prices: its method answers, for `quantities`, the price of every
 * option in `options_html`.
 */
export async function quantityOptionPrices(
  context: CallContext,
  product: FragmentProduct,
  quantities: Quantities,
): Promise<Record<number, PriceQuote>> {
  const prices = fragmentPack(product).prices;
  if (prices.kind !== 'update_options') throw new TypeError(`${product} is not priced by an update_options call`);
  const flow = context.flows[product];
  const json = await context.api.read(
    product,
    prices.method,
    { ...prices.fields(quantities), dh: flow.dh },
    context.flowGuard(),
  );
  raiseBusinessError(json, prices.method);
  echoFlowState(flow, json);
  const html = typeof json.options_html === 'string' ? json.options_html : '';
  const result: Record<number, PriceQuote> = {};
  for (const [option, price] of parseOptionPrices(html, prices.optionField))
    result[option] = { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
  if (Object.keys(result).length === 0)
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${prices.method}: no readable options_html`, {
      method: prices.method,
    });
  return result;
}

/** USD per TON from the `ajInit` state of the page that carries it, as the decimal string Fragment wrote. */
export async function tonRate(context: CallContext): Promise<string> {
  const product = statusPageProduct();
  const html = await context.api.loadPage(product);
  const rate = parseAjInit(html).tonRate;
  const page = fragmentPack(product).page;
  if (rate === undefined)
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${page}: no tonRate in ajInit state`, {
      method: `GET ${page}`,
    });
  return rate;
}

/** The options a product's domain pack sells for its amount. */
function amountChoices(product: FragmentProduct): readonly number[] {
  const description = productDescription(product);
  const rule = description.quantities.find((field) => field.quantity === description.amountQuantity)?.rule;
  if (rule?.kind !== 'choices') throw new TypeError(`${product} has no fixed choices`);
  return rule.values;
}
