import type { Quantities } from '@starsgate/domain';
import type { FragmentErrorKind } from '../error-kinds';

/** How a product's history rows read (history-parsing.ts). */
export interface HistoryRowReader {
  /** The quantity cell's text → the order's quantity (a count, months, whole GRAM). */
  readQuantity: (text: string) => number | undefined;
  /** What the quantity is called in a format error: `Stars quantity`. */
  quantityName: string;
  /** The quantity is itself GRAM (a top-up's `.icon-ton` cell): not to be skipped as the price. */
  quantityIsMoney: boolean;
  /** A header word (regex source) naming the quantity column beyond the shared ones (`quantity`, `amount`, `months`…). */
  quantityHeader?: string;
  /**
   * Only a row showing the order's own Ref# vouches for its delivery: a row naming recipient and
   * quantity is never counted against look-alikes (the giveaway: its row's shape is an assumption).
   */
  vouchesOnlyByRef?: boolean;
}

/** One item of the live contract check (contract-check.ts): whether fragment.com still shows what the adapter relies on. */
export interface ContractFinding {
  item: string;
  /** false: fragment.com no longer shows what the adapter relies on (drift). */
  holds: boolean;
  detail: string;
}

/** What a comment's text says about the order: undefined when it is not this product's comment. */
export type CommentReader = (what: string) => { quantity?: number } | undefined;

/**
 * Where Fragment names a product's price (reads/price-book.ts and the client's price reads):
 * - `update_prices`: an API method prices any quantity (`updateStarsPrices {quantity}` → `cur_price`),
 *   also called before init when `beforeInit`; the reference list holds `referenceQuantity`;
 * - `page_options`: the product page's radio options (`input[name=<optionField>]`), one price each;
 * - `update_options`: an API method answers, for the quantities it is sent, the price of each
 *   option in `options_html` (`input[name=<optionField>]` radios, the option being the quantity
 *   `optionQuantity`); the reference list holds the options at `reference`;
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
  | {
      kind: 'update_options';
      method: string;
      fields: (quantities: Quantities) => Record<string, string>;
      optionField: string;
      optionQuantity: string;
      reference: Quantities;
    }
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
  /** The session pool syncs this product's flow state when it starts (its page read, a dead login found early). */
  warmUp: boolean;
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
  /** The comment may have no space before its blank line (no evidence shows this product's separator). */
  commentSpaceOptional?: boolean;
  /**
   * How the success screen names the order's quantities, as a pattern over the lower-cased text
   * with separators dropped (order-status-text.ts): `50 telegram stars were sent to @alice.`
   */
  statusTextAmount: (quantities: Quantities) => string;
  /**
   * Error texts of this product (errors.ts): read first for its own methods (search, state, price,
   * init, link); `ownMethodsOnly` texts are read for those alone, the others for any answer.
   */
  errorTexts: ReadonlyArray<{ pattern: RegExp; kind: FragmentErrorKind; ownMethodsOnly?: boolean }>;
  /**
   * What this product's page must still show for the limits and options starsgate sells (the live
   * contract check, contract-check.ts), read from the page's HTML; absent when nothing beyond the
   * API hash and payment methods is assumed.
   */
  pageContract?: (html: string) => ContractFinding[];
}
