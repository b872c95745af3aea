import { gramPack } from './gram';
import type { SimProductPack } from './pack';
import { premiumPack } from './premium';
import { premiumGiveawayPack } from './premium-giveaway';
import { starsPack } from './stars';

/**
 * The products the simulator sells, one line each. Read on first use, never while modules load:
 * the packs import the shared flow, which looks packs up, so a pack may still be loading when this
 * module is.
 */
function packTable() {
  return {
    stars: starsPack,
    premium: premiumPack,
    gram: gramPack,
    premium_giveaway: premiumGiveawayPack,
  } satisfies Record<string, SimProductPack>;
}

export type SimProduct = keyof ReturnType<typeof packTable>;

let packs: Record<SimProduct, SimProductPack> | undefined;
function loaded(): Record<SimProduct, SimProductPack> {
  packs ??= packTable();
  return packs;
}

export function simProducts(): SimProduct[] {
  return Object.keys(loaded()) as SimProduct[];
}

/** The pack of `product`; throws on a product the simulator does not sell. */
export function productPack(product: string): SimProductPack {
  const table = loaded();
  const pack = Object.hasOwn(table, product) ? table[product as SimProduct] : undefined;
  if (!pack) throw new Error(`unknown product ${product}`);
  return pack;
}

export function allPacks(): SimProductPack[] {
  const table = loaded();
  return simProducts().map((product) => table[product]);
}
