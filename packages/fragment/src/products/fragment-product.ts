import type { Quantities } from '@starsgate/domain';
import type { FragmentErrorKind } from '../error-kinds';

/** How a product's history rows read (history-parsing.ts). */
export interface HistoryRowReader {
  /** The quantity cell's text → Stars count, Premium months, top-up GRAM. */
  readQuantity: (text: string) => number | undefined;
  /** What the quantity is called in a format error: `Stars quantity`. */
  quantityName: string;
  /** The quantity is itself GRAM (a top-up's `.icon-ton` cell): not to be skipped as the price. */
  quantityIsMoney: boolean;
}

/** What a comment's text says about the order: undefined when it is not this product's comment. */
export type CommentReader = (what: string) => { quantity?: number } | undefined;

/**
 * Where Fragment names a product's price (reads/price-book.ts and the client's price reads):
 * - `update_prices`: an API method prices any quantity (`updateStarsPrices {quantity}` → `cur_price`),
 *   also called before init when `beforeInit`; the reference list holds `referenceQuantity`;
 * - `page_options`: the product page's radio options (`input[name=<optionField>]`), one price each;
 * - `face_value`: the quantity is the price in whole GRAM (the top-up): no Fragment call.
 */
export type PriceRead =
  | {
      kind: 'update_prices';
      method: string;
      fields: (quantities: Quantities) => Record<string, string>;
      beforeInit: boolean;
      referenceQuantity: number;
    }
  | { kind: 'page_options'; optionField: string }
  | { kind: 'face_value' };

/**
 * One product's Fragment side, described once (docs/fragment-protocol.md §2.1, §5, and the
 * 2026-11-26 corrections for the top-up): its pages and API methods, its price read, the order
 * comment, the history rows, the success screen's text and its own error texts. The domain's
 * pack (`@starsgate/domain`, `products/`) holds the rest.
 */
export interface FragmentProductPack {
  page: string;
  search: string;
  /**
   * The form fields naming the order's quantities in search, init and the page's Referer (Stars
   * `{quantity}`, Premium `{months}`, the top-up `{amount}`).
   */
  orderFields: (quantities: Quantities) => Record<string, string>;
  /** Whether search sends the quantities too (the top-up's search takes the query alone). */
  searchSendsQuantities: boolean;
  /** Whether init names a payment method (the top-up sends none: GRAM only). */
  initSendsPaymentMethod: boolean;
  prices: PriceRead;
  /** The page's `ajInit` state carries Fragment's TON rate (read for USD conversions). */
  carriesTonRate: boolean;
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
   * How the success screen names the order's quantities, as a pattern over the lower-cased text
   * with separators dropped (order-status-text.ts): `50 telegram stars were sent to @alice.`
   */
  statusTextAmount: (quantities: Quantities) => string;
  /** Error texts only this product's methods answer (errors.ts reads them before the shared ones). */
  errorTexts: ReadonlyArray<{ pattern: RegExp; kind: FragmentErrorKind }>;
}
