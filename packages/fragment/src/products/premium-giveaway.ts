/**
 * Premium giveaways on Fragment: `/premium/giveaway` (docs/fragment-protocol.md §22, from the
 * protocol reference's "Evidence, 2026-11-28"). Where the evidence is silent (the price's place in
 * `options_html`, the history row, the success screen) this pack takes the safe reading: a
 * delivery is believed only from a history row showing the order's own Ref#.
 */
import { fragmentInteger } from '../amounts';
import type { CommentReader, FragmentProductPack } from './fragment-product';

/** `10 × 3 months` / `1,000 x 1 year` → the winners, when the months read too (the row shape is an assumption). */
export function parseGiveawayWinners(text: string): number | undefined {
  const match = /^([\d][\d,\s\u00a0]*)\s*[×x]\s*(\d{1,2})\s*(?:months?|years?)$/i.exec(text.trim());
  if (!match) return undefined;
  const winners = fragmentInteger(match[1]!.trim());
  return winners !== undefined && winners > 0 ? winners : undefined;
}

/**
 * `Prepaid Subscription …`: the evidence shows only these words and the Ref#; the winners are read
 * when the text names them (`Prepaid Subscription for 10 × 3 months`), else only the Ref#.
 */
export const readGiveawayComment: CommentReader = (what) => {
  if (!/^Prepaid Subscription\b/.test(what)) return undefined;
  const winners = /\bfor ([\d,]+)\s*[×x]\s*\d{1,2} months?$/.exec(what)?.[1];
  const quantity = winners === undefined ? undefined : fragmentInteger(winners);
  return quantity !== undefined && quantity > 0 ? { quantity } : {};
};

export const premiumGiveawayPack: FragmentProductPack = {
  page: '/premium/giveaway',
  search: 'searchPremiumGiveawayRecipient',
  orderFields: ({ winners, months }) => ({ quantity: String(winners), months: String(months) }),
  searchSendsQuantities: true,
  initSendsPaymentMethod: true,
  prices: {
    kind: 'update_options',
    method: 'updatePremiumGiveawayPrices',
    fields: ({ winners }) => ({ quantity: String(winners) }),
    optionField: 'months',
    optionQuantity: 'months',
    reference: { winners: 1, months: 3 },
  },
  carriesTonRate: false,
  newStateBeforeSearch: false,
  updateState: 'updatePremiumGiveawayState',
  init: 'initGiveawayPremiumRequest',
  link: 'getGiveawayPremiumLink',
  // No evidence shows a giveaway's row: assumed in Premium's table, `N × M months` (docs §22).
  history: '/premium/history?sort=desc',
  historyMore: 'getPremiumHistory',
  historyRows: {
    readQuantity: parseGiveawayWinners,
    quantityName: 'giveaway winners',
    quantityIsMoney: false,
    vouchesOnlyByRef: true,
  },
  readComment: readGiveawayComment,
  // The success screen's wording has no evidence: it never vouches (a pattern that matches nothing).
  statusTextAmount: () => '(?!)',
  errorTexts: [
    // Fragment's search answers this for users, bots and unknown names alike: not a channel.
    { pattern: /no telegram channels found/i, kind: 'RECIPIENT_INELIGIBLE', ownMethodsOnly: true },
  ],
};
