/** Telegram Stars on Fragment: `/stars/buy` (docs/fragment-protocol.md §2.1, §5, §9). */
import { STARS_MAX, STARS_MIN } from '@starsgate/domain';
import { fragmentInteger } from '../amounts';
import { htmlToText, unescapeHtml } from '../html-parsing';
import type { CommentReader, ContractFinding, FragmentProductPack } from './fragment-product';

/** `1,000` / `1 000` / `50` / `1,000 Stars` → 1000 (amounts.ts reads the number). */
export function parseStarsQuantity(text: string): number | undefined {
  const bare = text.replace(/\s*(?:telegram\s+)?stars?\b|⭐️?|\u2b50\ufe0f?/gi, '').trim();
  const value = fragmentInteger(bare);
  return value !== undefined && value > 0 ? value : undefined;
}

/** `50 Telegram Stars`. */
export const readStarsComment: CommentReader = (what) => {
  const match = /^(\d+) Telegram Stars$/.exec(what);
  if (!match) return undefined;
  const quantity = Number(match[1]);
  return Number.isSafeInteger(quantity) ? { quantity } : undefined;
};

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

/** The page's quantity placeholder still allows what starsgate accepts. */
function starsPageContract(html: string): ContractFinding[] {
  const limits = parseStarsLimits(html);
  return [
    limits === undefined
      ? { item: 'Stars limits', holds: false, detail: 'no "Enter amount from … to …" placeholder on /stars/buy' }
      : {
          item: 'Stars limits',
          holds: limits.min === STARS_MIN && limits.max >= STARS_MAX,
          detail: `Fragment: ${limits.min} to ${limits.max}; starsgate accepts ${STARS_MIN} to ${STARS_MAX}`,
        },
  ];
}

export const starsPack: FragmentProductPack = {
  page: '/stars/buy',
  search: 'searchStarsRecipient',
  orderFields: ({ stars }) => ({ quantity: String(stars) }),
  searchSendsQuantities: true,
  initSendsPaymentMethod: true,
  prices: {
    kind: 'update_prices',
    method: 'updateStarsPrices',
    fields: ({ stars }) => ({ stars: '', quantity: String(stars) }),
    beforeInit: true,
    referenceQuantity: 50,
  },
  carriesTonRate: true,
  warmUp: true,
  newStateBeforeSearch: false,
  updateState: 'updateStarsBuyState',
  init: 'initBuyStarsRequest',
  link: 'getBuyStarsLink',
  history: '/stars/history?sort=desc',
  historyMore: 'getPremiumHistory',
  historyRows: {
    readQuantity: parseStarsQuantity,
    quantityName: 'Stars quantity',
    quantityIsMoney: false,
    quantityHeader: 'stars',
  },
  readComment: readStarsComment,
  statusTextAmount: ({ stars }) => `(?<![0-9])${stars} telegram stars`,
  errorTexts: [
    { pattern: /can['’]?t gift telegram stars to this account/i, kind: 'RECIPIENT_INELIGIBLE' },
    { pattern: /cannot gift telegram stars to this account/i, kind: 'RECIPIENT_INELIGIBLE' },
  ],
  pageContract: starsPageContract,
};
