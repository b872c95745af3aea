/**
 * A live, read-only check of what this adapter assumes about fragment.com's product pages, as
 * pyfragment's weekly contract test does (docs/fragment-protocol.md §19.5): the API hash on every
 * product page, each product page's own limits and options (its pack's `pageContract`), the
 * `payment_method` values, the history pages' shapes. It creates no order: page GETs and history
 * reads only.
 */
import type { FragmentClient } from './client';
import { isFragmentError } from './errors';
import { parseAjInit, radioValues } from './html-parsing';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack, type ContractFinding } from './products';
import type { FragmentPaymentMethod, FragmentProduct } from './types';

export type { ContractFinding };

/** The values init sends as `payment_method` (request-validation.ts). */
const PAYMENT_METHOD_VALUES: readonly FragmentPaymentMethod[] = ['ton', 'usdt_ton'];

/**
 * Reads every product page and, with `historyClient` (a logged-in session: history needs a
 * Telegram login), each history table. Page errors (Cloudflare, a dead login) propagate:
 * they say nothing about the contract.
 */
export async function checkContract(
  client: FragmentClient,
  historyClient?: FragmentClient,
): Promise<ContractFinding[]> {
  const findings: ContractFinding[] = [];
  const pages = {} as Record<FragmentProduct, string>;
  for (const product of FRAGMENT_PRODUCT_NAMES) {
    const path = fragmentPack(product).page;
    const html = await client.pageHtml(path);
    pages[product] = html;
    const hash = parseAjInit(html).apiHash;
    findings.push(
      hash !== undefined
        ? { item: `${path} API hash`, holds: true, detail: `found (${hash.length} hex)` }
        : { item: `${path} API hash`, holds: false, detail: 'no api?hash= in the page: no call can be made' },
    );
  }

  for (const product of FRAGMENT_PRODUCT_NAMES)
    findings.push(...(fragmentPack(product).pageContract?.(pages[product]) ?? []));

  // Every product whose init names a payment method offers the radios on its page.
  for (const product of FRAGMENT_PRODUCT_NAMES.filter((name) => fragmentPack(name).initSendsPaymentMethod)) {
    const values = radioValues(pages[product], 'payment_method');
    const missing = PAYMENT_METHOD_VALUES.filter((value) => !values.includes(value));
    findings.push({
      item: `${fragmentPack(product).page} payment methods`,
      holds: missing.length === 0,
      detail:
        missing.length === 0
          ? `{${values.join(', ')}}`
          : `Fragment offers {${values.join(', ')}}; starsgate sends ${missing.join(', ')}, which it no longer lists`,
    });
  }

  if (historyClient !== undefined) {
    // One finding per history table (products may share one).
    const tables = new Map<string, FragmentProduct>();
    for (const product of FRAGMENT_PRODUCT_NAMES) {
      const table = fragmentPack(product).history.split('?')[0]!;
      if (!tables.has(table)) tables.set(table, product);
    }
    for (const product of tables.values()) findings.push(await historyFinding(historyClient, product));
  }
  return findings;
}

async function historyFinding(client: FragmentClient, product: FragmentProduct): Promise<ContractFinding> {
  const item = `${fragmentPack(product).history.split('?')[0]} shape`;
  let read: Awaited<ReturnType<FragmentClient['deliveryHistory']>>;
  try {
    read = await client.deliveryHistory(product, { maxPages: 1 });
  } catch (error) {
    // Cloudflare says nothing about the pages; anything else means the page cannot be read as expected.
    if (isFragmentError(error, 'CLOUDFLARE')) throw error;
    return { item, holds: false, detail: `not readable: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (read.shape === 'unrecognized')
    return { item, holds: false, detail: `not parseable: ${read.problem ?? 'unknown shape'}` };
  return {
    item,
    holds: true,
    detail: read.shape === 'empty' ? 'a table without rows yet' : `${read.rows.length} rows read`,
  };
}
