import { gramPack } from './gram';
import type { SimProductPack } from './pack';
import { premiumPack } from './premium';
import { premiumGiveawayPack } from './premium-giveaway';
import { starsPack } from './stars';

const PACKS = {
  stars: starsPack,
  premium: premiumPack,
  gram: gramPack,
  premium_giveaway: premiumGiveawayPack,
} satisfies Record<string, SimProductPack>;

/** The products the simulator sells: each has one pack (products/<name>.ts) and a line above. */
export type SimProduct = keyof typeof PACKS;

export const SIM_PRODUCTS = Object.keys(PACKS) as SimProduct[];

/** The pack of `product`; throws on a product the simulator does not sell. */
export function productPack(product: string): SimProductPack {
  const pack = Object.hasOwn(PACKS, product) ? PACKS[product as SimProduct] : undefined;
  if (!pack) throw new Error(`unknown product ${product}`);
  return pack;
}

export function allPacks(): SimProductPack[] {
  return SIM_PRODUCTS.map((product): SimProductPack => PACKS[product]);
}
