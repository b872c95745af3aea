/** Telegram Premium gifts on Fragment: `/premium/gift` (docs/fragment-protocol.md §2.1, §5, §9). */
import { PREMIUM_MONTHS } from '@starsgate/domain';
import type { FragmentErrorMeaning } from '../error-kinds';
import { radioValues } from '../html-inputs';
import type { CommentReader, ContractFinding, FragmentProductPack } from './fragment-product';

/** `3 months` → 3, `1 year` / `a year` / `12 months` → 12. */
export function parsePremiumDuration(text: string): number | undefined {
  const months = /^(\d{1,2})\s*(?:months?|mo\.?)$/i.exec(text.trim());
  if (months) return Number(months[1]);
  const years = /^(\d|one|a)\s*years?$/i.exec(text.trim());
  if (years) return 12 * (/^\d$/.test(years[1]!) ? Number(years[1]) : 1);
  return undefined;
}

const PREMIUM_COMMENT_MONTHS: Record<string, number> = { '3 months': 3, '6 months': 6, '1 year': 12 };

/** `Telegram Premium for 3 months`, `… for 1 year`. */
export const readPremiumComment: CommentReader = (what) => {
  const match = /^Telegram Premium for (3 months|6 months|1 year)$/.exec(what);
  return match ? { quantity: PREMIUM_COMMENT_MONTHS[match[1] ?? ''] ?? 0 } : undefined;
};

/** The error kinds this product adds to the shared table (error-kinds.ts). */
export const premiumErrorKinds = {
  PREMIUM_ALREADY_ACTIVE: {
    retryable: false,
    availability: 'PREMIUM_ALREADY_ACTIVE',
    orderFailure: 'PREMIUM_ALREADY_ACTIVE',
    session: 'answered',
  },
} as const satisfies Record<string, FragmentErrorMeaning>;

/** The page's months radios are still the durations starsgate sells. */
function premiumPageContract(html: string): ContractFinding[] {
  const months = radioValues(html, 'months').map(Number);
  const sameSet =
    months.length === PREMIUM_MONTHS.length &&
    months.every((value) => (PREMIUM_MONTHS as readonly number[]).includes(value));
  return [
    {
      item: 'Premium months',
      holds: sameSet,
      detail: `Fragment: {${months.join(', ')}}; starsgate sells {${PREMIUM_MONTHS.join(', ')}}`,
    },
  ];
}

export const premiumPack: FragmentProductPack = {
  page: '/premium/gift',
  search: 'searchPremiumGiftRecipient',
  orderFields: ({ months }) => ({ months: String(months) }),
  searchSendsQuantities: true,
  initSendsPaymentMethod: true,
  prices: { kind: 'page_options', optionField: 'months' },
  carriesTonRate: false,
  warmUp: true,
  newStateBeforeSearch: false,
  updateState: 'updatePremiumState',
  init: 'initGiftPremiumRequest',
  link: 'getGiftPremiumLink',
  history: '/premium/history?sort=desc',
  historyMore: 'getPremiumHistory',
  historyRows: { readQuantity: parsePremiumDuration, quantityName: 'Premium duration', quantityIsMoney: false },
  readComment: readPremiumComment,
  statusTextAmount: ({ months }) =>
    `telegram premium for ${months === 12 ? '(?:1 year|12 months)' : `${months} months`}`,
  errorTexts: [{ pattern: /already subscribed/i, kind: 'PREMIUM_ALREADY_ACTIVE' }],
  pageContract: premiumPageContract,
};
