import type { Product } from './sessions';

/**
 * The `type` a history page's state names, which Fragment's script sends back with each "load
 * more": the Stars page names one, the Premium page none (the script then sends an empty string).
 * Which table a `getPremiumHistory` call continues is told by it alone, so a client that does not
 * send the page's own `type` gets the wrong rows or none.
 */
export const HISTORY_TYPES: Record<Product, string> = { stars: 'stars', premium: '', gram: 'topup' };

export function historyProductOfType(type: string): Product | undefined {
  return (Object.keys(HISTORY_TYPES) as Product[]).find((product) => HISTORY_TYPES[product] === type);
}
