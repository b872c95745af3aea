import type { AvailabilityCode, ErrorCode } from '@starsgate/domain';
import { PRODUCT_ERROR_KINDS, type ProductErrorKind } from './products/error-kinds';

/**
 * Every way a Fragment call can fail (docs/fragment-protocol.md §11), and the one place that says
 * what each means to the service. `FragmentError`, the availability checker and the worker's
 * pre-signing classification all read this table. A product's own kinds come from its pack
 * (products/error-kinds.ts).
 */
export type FragmentErrorKind = SharedFragmentErrorKind | ProductErrorKind;

type SharedFragmentErrorKind =
  | 'RECIPIENT_NOT_FOUND'
  | 'RECIPIENT_INELIGIBLE'
  | 'PRICE_CHANGED'
  | 'SESSION_INVALID'
  | 'VERIFICATION_REQUIRED'
  | 'PAYMENT_METHOD_UNAVAILABLE'
  | 'RATE_LIMITED'
  | 'CLOUDFLARE'
  | 'UPSTREAM_UNAVAILABLE'
  | 'ORDER_EXPIRED'
  | 'UPSTREAM_REJECTED'
  /** Fragment answered, but not in the shape this adapter knows (protocol drift). Not retryable. */
  | 'UNEXPECTED_RESPONSE';

export interface FragmentErrorMeaning {
  /** The same call may succeed later. */
  retryable: boolean;
  /** An answer about the recipient rather than a failure: what an availability check reports. */
  availability?: AvailabilityCode;
  /**
   * Ends an order before anything is signed, with this purchase error (its message and action
   * come from the domain's error catalogue). Kinds without one are retried: without our
   * signature nothing can be paid.
   */
  orderFailure?: ErrorCode;
  /**
   * What it says of the login that made the call (the worker's session gauge and health):
   * `refused`, the login itself is refused; `answered`, Fragment read the login and replied about
   * the order; `silent`, a failure on the way that says nothing about the login.
   */
  session: 'refused' | 'answered' | 'silent';
}

export const FRAGMENT_ERROR_KINDS: Readonly<Record<FragmentErrorKind, FragmentErrorMeaning>> = {
  RECIPIENT_NOT_FOUND: {
    retryable: false,
    availability: 'RECIPIENT_NOT_FOUND',
    orderFailure: 'RECIPIENT_NOT_FOUND',
    session: 'answered',
  },
  RECIPIENT_INELIGIBLE: {
    retryable: false,
    availability: 'RECIPIENT_INELIGIBLE',
    orderFailure: 'RECIPIENT_INELIGIBLE',
    session: 'answered',
  },
  ...PRODUCT_ERROR_KINDS,
  PAYMENT_METHOD_UNAVAILABLE: {
    retryable: false,
    availability: 'PAYMENT_METHOD_UNAVAILABLE',
    orderFailure: 'PAYMENT_METHOD_UNAVAILABLE',
    session: 'silent',
  },
  PRICE_CHANGED: { retryable: true, session: 'answered' },
  SESSION_INVALID: { retryable: false, orderFailure: 'UPSTREAM_SESSION_INVALID', session: 'refused' },
  VERIFICATION_REQUIRED: { retryable: false, orderFailure: 'UPSTREAM_VERIFICATION_REQUIRED', session: 'refused' },
  RATE_LIMITED: { retryable: true, session: 'silent' },
  CLOUDFLARE: { retryable: true, session: 'silent' },
  UPSTREAM_UNAVAILABLE: { retryable: true, session: 'silent' },
  // The same call cannot succeed; before signing, the worker retries its step, which makes a new order.
  ORDER_EXPIRED: { retryable: false, session: 'answered' },
  UPSTREAM_REJECTED: { retryable: false, orderFailure: 'UPSTREAM_REJECTED', session: 'silent' },
  UNEXPECTED_RESPONSE: { retryable: false, orderFailure: 'UPSTREAM_REJECTED', session: 'silent' },
};
