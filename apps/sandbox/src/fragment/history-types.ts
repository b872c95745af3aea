import { allPacks, productPack } from './products/registry';
import type { Product } from './sessions';

/**
 * The `type` a history page's state names, which Fragment's script sends back with each "load
 * more": some pages name one, others none (the script then sends an empty string). Which table a
 * `get…History` call continues is told by it alone, so a client that does not
 * send the page's own `type` gets the wrong rows or none. Each table's owner names it (products/*.ts).
 */
export function historyTypeOf(table: Product): string {
  const type = productPack(table).history.type;
  if (type === undefined) throw new Error(`${table} has no history table of its own`);
  return type;
}

export function historyProductOfType(type: string): Product | undefined {
  return allPacks().find((pack) => pack.history.table === pack.product && pack.history.type === type)?.product;
}
