import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from '../products';
import type { FragmentProduct } from '../types';

/** The product whose page carries the TON rate, and serves as the session's status page. */
export function statusPageProduct(): FragmentProduct {
  const product = FRAGMENT_PRODUCT_NAMES.find((name) => fragmentPack(name).carriesTonRate);
  if (!product) throw new Error('no Fragment product page carries the TON rate');
  return product;
}
