/** GRAM top-up on Fragment: `/ads/topup` (docs/fragment-protocol.md §18 and the 2026-11-26 corrections). */
import { fragmentInteger } from '../amounts';
import type { CommentReader, FragmentProductPack } from './fragment-product';

/** `1,000` / `25 TON` / `25 GRAM` → the whole GRAM of a top-up row (its `.icon-ton` cell). */
export function parseTopupAmount(text: string): number | undefined {
  const value = fragmentInteger(text.replace(/\s*(?:TON|GRAM)\b/gi, '').trim());
  return value !== undefined && value > 0 ? value : undefined;
}

/** `Telegram account top up`: the comment names no amount (the payment's value is the amount). */
export const readTopupComment: CommentReader = (what) => (what === 'Telegram account top up' ? {} : undefined);

export const gramPack: FragmentProductPack = {
  page: '/ads/topup',
  search: 'searchAdsTopupRecipient',
  orderFields: ({ gram }) => ({ amount: String(gram) }),
  searchSendsQuantities: false,
  initSendsPaymentMethod: false,
  prices: { kind: 'face_value' },
  carriesTonRate: false,
  newStateBeforeSearch: true,
  updateState: 'updateAdsTopupState',
  init: 'initAdsTopupRequest',
  link: 'getAdsTopupLink',
  history: '/ads/history?type=topup&sort=desc',
  historyMore: 'getPremiumHistory',
  historyRows: { readQuantity: parseTopupAmount, quantityName: 'top-up amount', quantityIsMoney: true },
  readComment: readTopupComment,
  // No capture of the top-up's success screen: the amount with its coin, under either name.
  statusTextAmount: ({ gram }) => `(?<![0-9.])${gram} (?:ton|gram)\\b`,
  errorTexts: [],
};
