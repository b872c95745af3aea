import type { Product } from '@starsgate/domain';
import type { FragmentProductPack } from './fragment-product';
import { gramPack } from './gram';
import { premiumPack } from './premium';
import { premiumGiveawayPack } from './premium-giveaway';
import { starsPack } from './stars';

export * from './fragment-product';
export * from './readers';

/** Every product's Fragment pack, by the domain's product name (one line per product). */
export const FRAGMENT_PRODUCTS: Readonly<Record<Product, FragmentProductPack>> = {
  stars: starsPack,
  premium: premiumPack,
  gram: gramPack,
  premium_giveaway: premiumGiveawayPack,
};

/** The Fragment pack of `product`; throws on a product without one (never a default product). */
export function fragmentPack(product: Product): FragmentProductPack {
  if (!Object.prototype.hasOwnProperty.call(FRAGMENT_PRODUCTS, product))
    throw new Error(`no Fragment pack for product ${String(product)}`);
  return FRAGMENT_PRODUCTS[product];
}

/** The products in registry order. */
export const FRAGMENT_PRODUCT_NAMES = Object.keys(FRAGMENT_PRODUCTS) as Product[];

/** The product whose page carries the TON rate (and serves as the session's status page). */
export function tonRateProduct(): Product {
  const product = FRAGMENT_PRODUCT_NAMES.find((name) => fragmentPack(name).carriesTonRate);
  if (!product) throw new Error('no Fragment product page carries the TON rate');
  return product;
}
