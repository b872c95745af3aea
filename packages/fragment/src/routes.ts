import {
  parsePremiumDuration,
  parseStarsQuantity,
  parseTopupAmount,
  readPremiumComment,
  readStarsComment,
  readTopupComment,
  type CommentReader,
} from './product-readers';
import type { FragmentProduct } from './types';

/** How a product's history rows read (history-parsing.ts). */
export interface HistoryRowReader {
  /** The quantity cell's text → Stars count, Premium months, top-up GRAM. */
  readQuantity: (text: string) => number | undefined;
  /** What the quantity is called in a format error: `Stars quantity`. */
  quantityName: string;
  /** The quantity is itself GRAM (a top-up's `.icon-ton` cell): not to be skipped as the price. */
  quantityIsMoney: boolean;
}

/**
 * One product's Fragment side, described once (docs/fragment-protocol.md §2.1, §5, and the
 * 2026-11-26 corrections for the top-up): its pages and API methods, the order comment and the
 * history rows. The domain's registry (`@starsgate/domain`, `products/`) holds the rest.
 */
export interface ProductRoutes {
  page: string;
  search: string;
  /** The form field that carries the amount to search and init. */
  amountField: 'quantity' | 'months' | 'amount';
  /** Whether search sends the amount too (the top-up's search takes the query alone). */
  searchSendsAmount: boolean;
  /** Whether init names a payment method (the top-up sends none: GRAM only). */
  initSendsPaymentMethod: boolean;
  /**
   * The price is the amount in whole GRAM (the top-up): init's amount must be exactly the order's,
   * and a quote needs no Fragment call.
   */
  pricedAtFaceValue: boolean;
  /**
   * The page's state is opened with `update…State {mode: "new"}` before each search (the top-up:
   * pyfragment and both S1qwy clients do, docs/fragment-protocol.md §21).
   */
  newStateBeforeSearch: boolean;
  updateState: string;
  init: string;
  link: string;
  history: string;
  /**
   * API method for older history rows (`{type, offset_id}` → `{body, foot}`), docs/fragment-protocol.md
   * §17.2: Fragment's page script names `getPremiumHistory`; no public source names another, so the
   * Stars and top-up tables are assumed to use it too.
   */
  historyMore: string;
  historyRows: HistoryRowReader;
  /** The order comment's text before ` \n\nRef#…` (comment-payload.ts). */
  readComment: CommentReader;
  /**
   * How the success screen names the order's amount, as a pattern over the lower-cased text with
   * separators dropped (order-status-text.ts): `50 telegram stars were sent to @alice.`
   */
  statusTextAmount: (amount: number) => string;
}

export const ROUTES: Record<FragmentProduct, ProductRoutes> = {
  stars: {
    page: '/stars/buy',
    search: 'searchStarsRecipient',
    amountField: 'quantity',
    searchSendsAmount: true,
    initSendsPaymentMethod: true,
    pricedAtFaceValue: false,
    newStateBeforeSearch: false,
    updateState: 'updateStarsBuyState',
    init: 'initBuyStarsRequest',
    link: 'getBuyStarsLink',
    history: '/stars/history?sort=desc',
    historyMore: 'getPremiumHistory',
    historyRows: { readQuantity: parseStarsQuantity, quantityName: 'Stars quantity', quantityIsMoney: false },
    readComment: readStarsComment,
    statusTextAmount: (amount) => `(?<![0-9])${amount} telegram stars`,
  },
  premium: {
    page: '/premium/gift',
    search: 'searchPremiumGiftRecipient',
    amountField: 'months',
    searchSendsAmount: true,
    initSendsPaymentMethod: true,
    pricedAtFaceValue: false,
    newStateBeforeSearch: false,
    updateState: 'updatePremiumState',
    init: 'initGiftPremiumRequest',
    link: 'getGiftPremiumLink',
    history: '/premium/history?sort=desc',
    historyMore: 'getPremiumHistory',
    historyRows: { readQuantity: parsePremiumDuration, quantityName: 'Premium duration', quantityIsMoney: false },
    readComment: readPremiumComment,
    statusTextAmount: (months) => `telegram premium for ${months === 12 ? '(?:1 year|12 months)' : `${months} months`}`,
  },
  gram: {
    page: '/ads/topup',
    search: 'searchAdsTopupRecipient',
    amountField: 'amount',
    searchSendsAmount: false,
    initSendsPaymentMethod: false,
    pricedAtFaceValue: true,
    newStateBeforeSearch: true,
    updateState: 'updateAdsTopupState',
    init: 'initAdsTopupRequest',
    link: 'getAdsTopupLink',
    history: '/ads/history?type=topup&sort=desc',
    historyMore: 'getPremiumHistory',
    historyRows: { readQuantity: parseTopupAmount, quantityName: 'top-up amount', quantityIsMoney: true },
    readComment: readTopupComment,
    // No capture of the top-up's success screen: the amount with its coin, under either name.
    statusTextAmount: (amount) => `(?<![0-9.])${amount} (?:ton|gram)\\b`,
  },
};
