export { AvailabilityChecker, isPaymentMethodDisabled, parseDisabledPaymentMethods } from './availability-checker';
export type {
  AvailabilityAnswer,
  AvailabilityCheckerOptions,
  AvailabilityQuery,
  DisabledPaymentMethods,
} from './availability-checker';
export { PriceBook, type PriceBookOptions } from './price-book';
export { PricesUnavailableError } from './price-entries';
export type { PriceListAnswer, PricePair, QuoteAnswer, StoredPrice, StoredPriceList } from './price-entries';
export {
  ceilDiv,
  formatGram,
  formatUsdt,
  gramNanoForUsd,
  parseDecimal,
  perUnitUsdMicro,
  toUnitsCeil,
  usdToUsdtUnits,
} from './price-math';
export { ReadError, isReadError, toReadError, type ReadErrorKind, type ReadErrorReason } from './read-errors';
export { ReadLimiter, type Budget, type ReadLimiterOptions } from './read-limits';
export { LocalTtlCache, RedisJsonCache } from './redis-cache';
export { SingleFlight, type SingleFlightOptions } from './single-flight';
export { createFragmentReads, type FragmentReads, type FragmentReadsOptions } from './fragment-reads';
