import { isAppError, type ErrorCode } from '@starsgate/domain';
import { FRAGMENT_ERROR_KINDS, FragmentError } from '@starsgate/fragment';
import { ChainError, ChainUnavailableError } from '@starsgate/ton';

/** What a step does with an error from Fragment or the chain before anything was signed. */
export type PreSignOutcome =
  | { kind: 'fail'; code: ErrorCode; message: string }
  | { kind: 'retry'; reason: string; minDelayMs: number; outcomeUnknown: boolean };

/**
 * Maps an error raised before signing. Safe to retry anything transient: without our signature
 * nothing can be paid, even when a Fragment write's outcome is unknown (an orphan order at most).
 */
export function classifyPreSignError(error: unknown): PreSignOutcome {
  if (error instanceof FragmentError) {
    const code = FRAGMENT_ERROR_KINDS[error.kind].orderFailure;
    if (code) return { kind: 'fail', code, message: error.message };
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
