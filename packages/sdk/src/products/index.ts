import { withGram } from './gram.js';
import { withPremium } from './premium.js';
import type { ClientClass } from './product-methods.js';
import { withStars } from './stars.js';

export type { BuyStarsParams } from './stars.js';
export type { BuyPremiumParams } from './premium.js';
export type { BuyGramParams } from './gram.js';

/** `base` with every product's named methods mixed in (`buyStars`, `getPremiumPrice`, …). */
export function withProductMethods<Base extends ClientClass>(base: Base) {
  return withGram(withPremium(withStars(base)));
}
