export { FragmentClient, DEFAULT_DEVICE, type FragmentClientOptions } from './client';
export { FragmentSessionPool, type FragmentSessionPoolOptions } from './session-pool';
export { COOKIE_STORE_PREFIX, PersistedCookies, RedisCookieStore, type CookieCodec } from './cookie-store';
export { LOGIN_STATES_KEY, LoginStates, type LoginState, type LoginStateHash } from './login-states';
export {
  SESSION_LEASE_PREFIX,
  SessionLeases,
  sessionLeaseTtlMs,
  type FlowLease,
  type SessionLeaseOptions,
} from './session-lease';
export { FragmentError, isFragmentError, classifyErrorText, errorFromText, type FragmentErrorOptions } from './errors';
export { FRAGMENT_ERROR_KINDS, type FragmentErrorKind, type FragmentErrorMeaning } from './error-kinds';
export {
  decodeCommentPayload,
  parseCommentText,
  FragmentPayloadError,
  type DecodedComment,
  type JettonTransferInfo,
} from './comment-payload';
export { fragmentDecimal, fragmentInteger, parseAmountToNano } from './amounts';
/** Parsers of Fragment's JSON answers (the client uses them; exported for the fuzz suite). */
export { parseInitAnswer, parseTransaction } from './transaction-parsing';
export { raiseBusinessError } from './business-errors';
export {
  unescapeHtml,
  htmlToText,
  extractApiHash,
  parseAjInit,
  parseWalletInit,
  parseCurPrice,
  parseOptionPrices,
  parseTonAmount,
  parseUsdAmount,
  parseImgSrc,
  pageLoggedIn,
  pageWalletLoggedIn,
  isCloudflareChallenge,
  type AjInitInfo,
  type WalletInitInfo,
  type DisplayedPrice,
  radioValues,
} from './html-parsing';
export {
  parseHistoryMore,
  parseHistoryPage,
  type HistoryPage,
  type HistoryRow,
  type HistoryShape,
} from './history-parsing';
export * from './products/readers';
export type { HistoryCursor, HistoryRead, HistoryReadOptions } from './history-read';
export { parseHistoryDateText } from './history-dates';
export { AccountHistory, type AccountHistoryOptions, type HistoryReader } from './account-history';
export { checkContract, type ContractFinding } from './contract-check';
export { parseProfile, type AccountProfile } from './profile-parsing';
export {
  CookieJar,
  proxyForLogin,
  redactCookies,
  splitCookieSets,
  splitProxyUrls,
  withoutWalletToken,
} from './session';
export { encodeForm } from './form';
export { cloudflarePageKind, cloudflareStop, type CloudflareStop } from './cloudflare';
export { DEFAULT_RETRY_POLICY, parseRetryAfter, proxyLabel, type FragmentLogger, type RetryPolicy } from './transport';
export type * from './types';
export * from './reads';
export { normalizeStatusText, normalizedTextNamesOrder, statusTextNamesOrder } from './order-status-text';
export { historyKey, orderHistoryKeys } from './history-matching';
/** Each product's Fragment side (whether its price is its amount: the worker's spend-cap pre-check). */
export { FRAGMENT_PRODUCTS, FRAGMENT_PRODUCT_NAMES, fragmentPack, type FragmentProductPack } from './products';
