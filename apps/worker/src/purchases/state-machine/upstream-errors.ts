import { isAppError, type ErrorCode } from '@starsgate/domain';
import { FragmentError } from '@starsgate/fragment';
import { ChainError, ChainUnavailableError } from '@starsgate/ton';

/** What a step does with an error from Fragment or the chain before anything was signed. */
export type PreSignOutcome =
  | { kind: 'fail'; code: ErrorCode; message: string; action?: string }
  | { kind: 'retry'; reason: string; minDelayMs: number; outcomeUnknown: boolean };

const FRAGMENT_FAILURES: Partial<Record<FragmentError['kind'], { code: ErrorCode; action?: string }>> = {
  RECIPIENT_NOT_FOUND: { code: 'RECIPIENT_NOT_FOUND' },
  RECIPIENT_INELIGIBLE: { code: 'RECIPIENT_INELIGIBLE' },
  PREMIUM_ALREADY_ACTIVE: { code: 'PREMIUM_ALREADY_ACTIVE' },
  PAYMENT_METHOD_UNAVAILABLE: { code: 'PAYMENT_METHOD_UNAVAILABLE' },
  SESSION_INVALID: {
    code: 'UPSTREAM_SESSION_INVALID',
    action:
      'Operator: log in to fragment.com with the paying wallet connected, copy the cookies into FRAGMENT_COOKIES, restart the worker, then create a new purchase.',
  },
  VERIFICATION_REQUIRED: {
    code: 'UPSTREAM_VERIFICATION_REQUIRED',
    action:
      'Operator: complete the verification (KYC) at fragment.com/kyc for the Fragment account in FRAGMENT_COOKIES, then create a new purchase.',
  },
  UPSTREAM_REJECTED: { code: 'UPSTREAM_REJECTED' },
  UNEXPECTED_RESPONSE: {
    code: 'UPSTREAM_REJECTED',
    action:
      'Operator: Fragment answered in an unknown shape (protocol drift); inspect the purchase events and update starsgate.',
  },
};

/**
 * Maps an error raised before signing. Safe to retry anything transient: without our signature
 * nothing can be paid, even when a Fragment write's outcome is unknown (an orphan order at most).
 */
export function classifyPreSignError(error: unknown): PreSignOutcome {
  if (error instanceof FragmentError) {
    const failure = FRAGMENT_FAILURES[error.kind];
    if (failure)
      return {
        kind: 'fail',
        code: failure.code,
        message: error.message,
        ...(failure.action ? { action: failure.action } : {}),
      };
    return {
      kind: 'retry',
      reason: `fragment ${error.kind}${error.method ? ` (${error.method})` : ''}`,
      minDelayMs: error.retryAfterMs ?? 0,
      outcomeUnknown: error.outcomeUnknown,
    };
  }
  if (error instanceof ChainUnavailableError)
    return { kind: 'retry', reason: `chain unavailable: ${error.message}`, minDelayMs: 0, outcomeUnknown: false };
  if (error instanceof ChainError)
    return { kind: 'retry', reason: `chain error: ${error.message}`, minDelayMs: 0, outcomeUnknown: false };
  if (isAppError(error)) return { kind: 'fail', code: error.code, message: error.message };
  return {
    kind: 'retry',
    reason: `unexpected: ${error instanceof Error ? error.message : String(error)}`,
    minDelayMs: 0,
    outcomeUnknown: false,
  };
}
