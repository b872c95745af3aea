import { canonicalQuantities, rowQuantities, type Quantities } from '@starsgate/domain';
import { fragmentPack } from './products';
import type { FragmentProduct } from './types';

interface OrderMatcher {
  handle: RegExp;
  amount: RegExp;
}

/** Compiled per order, since a delivery check tests every history row against each order. */
const matchers = new Map<string, OrderMatcher>();
const MAX_MATCHERS = 2_000;

/** An order as the status screen and history rows are matched against: its line's quantities, or a one-quantity product's amount. */
export interface NamedOrder {
  product: FragmentProduct;
  username: string;
  amount: number;
  quantities?: Quantities | null;
}

function matcherOf(order: NamedOrder): OrderMatcher {
  const handle = order.username.replace(/^@/, '').toLowerCase();
  const quantities = order.quantities ?? rowQuantities(order);
  const key = `${order.product}:${handle}:${canonicalQuantities({ product: order.product, quantities })}`;
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = {
      handle: new RegExp(`@${handle}(?![a-z0-9_])`),
      amount: new RegExp(fragmentPack(order.product).statusTextAmount(quantities)),
    };
    if (matchers.size >= MAX_MATCHERS) matchers.clear();
    matchers.set(key, matcher);
  }
  return matcher;
}

/**
 * Fragment's completion state belongs to the cookie session's latest order, so a "done" page can
 * be another order's. Its success screen names what was sent and to whom (each pack's `statusTextAmount`, then "were sent to
 * @alice."); this checks that the text
 * names this order's recipient and quantity before its "done" is believed.
 */
export function statusTextNamesOrder(statusText: string, order: NamedOrder): boolean {
  return normalizedTextNamesOrder(normalizeStatusText(statusText), order);
}

/** Lower case, thousands separators dropped ("1,000" → "1000"): the form the matchers read. */
export function normalizeStatusText(statusText: string): string {
  return statusText.toLowerCase().replace(/(\d)[,\s\u00a0](?=\d{3}\b)/g, '$1');
}

/** `statusTextNamesOrder` for a text already normalized (a history row tested against many orders). */
export function normalizedTextNamesOrder(text: string, order: NamedOrder): boolean {
  const matcher = matcherOf(order);
  return matcher.handle.test(text) && matcher.amount.test(text);
}
