/** Telegram Stars on Fragment: `/stars/buy` (docs/fragment-protocol.md §2.1, §5, §9). */
import { fragmentInteger } from '../amounts';
import type { CommentReader, FragmentProductPack } from './fragment-product';

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
  newStateBeforeSearch: false,
  updateState: 'updateStarsBuyState',
  init: 'initBuyStarsRequest',
  link: 'getBuyStarsLink',
  history: '/stars/history?sort=desc',
  historyMore: 'getPremiumHistory',
  historyRows: { readQuantity: parseStarsQuantity, quantityName: 'Stars quantity', quantityIsMoney: false },
  readComment: readStarsComment,
  statusTextAmount: ({ stars }) => `(?<![0-9])${stars} telegram stars`,
  errorTexts: [
    { pattern: /can['’]?t gift telegram stars to this account/i, kind: 'RECIPIENT_INELIGIBLE' },
    { pattern: /cannot gift telegram stars to this account/i, kind: 'RECIPIENT_INELIGIBLE' },
  ],
};
