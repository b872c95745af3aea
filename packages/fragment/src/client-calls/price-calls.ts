/**
 * A product's price as Fragment states it, by its pack's price read (products/fragment-product.ts
 * `PriceRead`), and the TON rate of the page that carries it. The caller holds the flow mutex:
 * these calls read or echo the page's flow state.
 */
import { GRAM_DECIMALS, productDescription, type Quantities } from '@starsgate/domain';
import { parseAmountToNano } from '../amounts';
import { raiseBusinessError } from '../business-errors';
import { FragmentError } from '../errors';
import { echoFlowState } from '../flow-state';
import { parseAjInit, parseCurPrice, parseOptionPrices } from '../html-parsing';
import { fragmentPack, tonRateProduct, type PriceRead } from '../products';
import { orderQuantities, validateAmount } from '../request-validation';
import type { FragmentProduct, PriceQuote } from '../types';
import type { ClientContext } from './context';

/** An `update_prices` read: the current price of `quantity` (binding only at init). */
export async function quoteQuantity(
  ctx: ClientContext,
  product: FragmentProduct,
  quantity: number,
): Promise<PriceQuote> {
  validateAmount(product, quantity);
  const prices = updatePricesRead(product);
  const json = await updatePrices(ctx, product, orderQuantities(product, quantity));
  const html = typeof json.cur_price === 'string' ? json.cur_price : undefined;
  const price = html !== undefined ? parseCurPrice(html) : undefined;
  if (!price)
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${prices.method}: no readable cur_price`, {
      method: prices.method,
    });
  return { gramNano: parseAmountToNano(price.ton, GRAM_DECIMALS), usd: price.usd };
}

/** `page_options` prices, one per option the domain pack sells; an option without a readable price is a format error. */
export async function optionPrices(ctx: ClientContext, product: FragmentProduct): Promise<Record<number, PriceQuote>> {
  const pack = fragmentPack(product);
  if (pack.prices.kind !== 'page_options') throw new TypeError(`${product} is not priced by page options`);
  const html = await ctx.api.loadPage(product);
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

/** `update_options` prices: the pack's method answers, for `quantities`, the price of every option in `options_html`. */
export async function quantityOptionPrices(
  ctx: ClientContext,
  product: FragmentProduct,
  quantities: Quantities,
): Promise<Record<number, PriceQuote>> {
  const prices = fragmentPack(product).prices;
  if (prices.kind !== 'update_options') throw new TypeError(`${product} is not priced by an update_options call`);
  const flow = ctx.flows[product];
  const json = await ctx.api.read(
    product,
    prices.method,
    { ...prices.fields(quantities), dh: flow.dh },
    ctx.lease.guard,
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
export async function tonRate(ctx: ClientContext): Promise<string> {
  const product = tonRateProduct();
  const html = await ctx.api.loadPage(product);
  const rate = parseAjInit(html).tonRate;
  const page = fragmentPack(product).page;
  if (rate === undefined)
    throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${page}: no tonRate in ajInit state`, {
      method: `GET ${page}`,
    });
  return rate;
}

/** The pack's `update_prices` method for `quantities`, echoing the flow state (also before init). */
export async function updatePrices(
  ctx: ClientContext,
  product: FragmentProduct,
  quantities: Quantities,
): Promise<Record<string, unknown>> {
  const prices = updatePricesRead(product);
  const flow = ctx.flows[product];
  const json = await ctx.api.read(
    product,
    prices.method,
    { ...prices.fields(quantities), dh: flow.dh },
    ctx.lease.guard,
  );
  raiseBusinessError(json, prices.method);
  echoFlowState(flow, json);
  return json;
}

/** A product's `update_prices` read; throws for a product priced otherwise. */
function updatePricesRead(product: FragmentProduct): Extract<PriceRead, { kind: 'update_prices' }> {
  const prices = fragmentPack(product).prices;
  if (prices.kind !== 'update_prices') throw new TypeError(`${product} is not priced by an update_prices call`);
  return prices;
}

/** The options a product's domain pack sells for its amount (its `choices` rule). */
function amountChoices(product: FragmentProduct): readonly number[] {
  const description = productDescription(product);
  const rule = description.quantities.find((field) => field.quantity === description.amountQuantity)?.rule;
  if (rule?.kind !== 'choices') throw new TypeError(`${product} has no fixed choices`);
  return rule.values;
}
