/**
 * A live, read-only check of what this adapter assumes about fragment.com's product pages, as
 * pyfragment's weekly contract test does (docs/fragment-protocol.md §19.5): the API hash on every
 * product page, the Stars limits in the quantity placeholder, the Premium months, the
 * `payment_method` values, the history pages' shapes. It creates no order: page GETs and history
 * reads only.
 */
import { PREMIUM_MONTHS, STARS_MAX, STARS_MIN } from '@starsgate/domain';
import { fragmentInteger } from './amounts';
import type { FragmentClient } from './client';
import { isFragmentError } from './errors';
import { htmlToText, parseAjInit, unescapeHtml } from './html-parsing';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';
import type { FragmentPaymentMethod, FragmentProduct } from './types';

export interface ContractFinding {
  item: string;
  /** false: fragment.com no longer shows what the adapter relies on (drift). */
  holds: boolean;
  detail: string;
}

/** The values init sends as `payment_method` (request-validation.ts). */
const PAYMENT_METHOD_VALUES: readonly FragmentPaymentMethod[] = ['ton', 'usdt_ton'];
const PRODUCTS_WITH_PAYMENT_METHODS: readonly FragmentProduct[] = ['stars', 'premium'];

/** "Enter amount from 50 to 10,000,000" → {50, 10000000}; undefined when the page words it otherwise. */
export function parseStarsLimits(html: string): { min: number; max: number } | undefined {
  const placeholders = [...html.matchAll(/\bplaceholder\s*=\s*["']([^"']*)["']/gi)].map((m) => unescapeHtml(m[1]!));
  for (const text of [...placeholders, htmlToText(html)]) {
    const match = /enter amount from\s+([\d,.\s\u00a0]+?)\s+to\s+([\d,.\s\u00a0]+\d)/i.exec(text);
    if (!match) continue;
    const min = fragmentInteger(match[1]!.trim());
    const max = fragmentInteger(match[2]!.trim());
    if (min !== undefined && max !== undefined) return { min, max };
  }
  return undefined;
}

/** The values of every `<input name="<name>">` radio, in page order, without repeats. */
export function radioValues(html: string, name: string): string[] {
  const values: string[] = [];
  for (const [input] of html.matchAll(/<input\b[^>]*>/gi)) {
    if (!new RegExp(`\\bname\\s*=\\s*["']${name}["']`, 'i').test(input)) continue;
    const value = /\bvalue\s*=\s*["']([^"']*)["']/i.exec(input)?.[1];
    if (value !== undefined && !values.includes(value)) values.push(value);
  }
  return values;
}

function sameSet(a: readonly (string | number)[], b: readonly (string | number)[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

/**
 * Reads the three product pages and, with `historyClient` (a logged-in session: history needs a
 * Telegram login), the three history pages. Page errors (Cloudflare, a dead login) propagate:
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

  const limits = parseStarsLimits(pages.stars);
  findings.push(
    limits === undefined
      ? { item: 'Stars limits', holds: false, detail: 'no "Enter amount from … to …" placeholder on /stars/buy' }
      : {
          item: 'Stars limits',
          holds: limits.min === STARS_MIN && limits.max >= STARS_MAX,
          detail: `Fragment: ${limits.min} to ${limits.max}; starsgate accepts ${STARS_MIN} to ${STARS_MAX}`,
        },
  );

  const months = radioValues(pages.premium, 'months').map(Number);
  findings.push({
    item: 'Premium months',
    holds: sameSet(months, PREMIUM_MONTHS),
    detail: `Fragment: {${months.join(', ')}}; starsgate sells {${PREMIUM_MONTHS.join(', ')}}`,
  });

  for (const product of PRODUCTS_WITH_PAYMENT_METHODS) {
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
    for (const product of FRAGMENT_PRODUCT_NAMES) findings.push(await historyFinding(historyClient, product));
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
