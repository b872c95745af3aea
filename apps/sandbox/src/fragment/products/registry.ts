import { gramPack } from './gram';
import type { SimProduct, SimProductPack } from './pack';
import { premiumPack } from './premium';
import { starsPack } from './stars';

const PACKS: Record<SimProduct, SimProductPack> = {
  stars: starsPack,
  premium: premiumPack,
  gram: gramPack,
};

export const SIM_PRODUCTS = Object.keys(PACKS) as SimProduct[];

/** The pack of `product`; throws on a product the simulator does not sell. */
export function productPack(product: string): SimProductPack {
  const pack = Object.hasOwn(PACKS, product) ? PACKS[product as SimProduct] : undefined;
  if (!pack) throw new Error(`unknown product ${product}`);
  return pack;
}

export function allPacks(): SimProductPack[] {
  return SIM_PRODUCTS.map((product) => PACKS[product]);
}
