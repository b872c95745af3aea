/**
 * The two ways a cached read (availability, prices) can fail, as the gateway must report them:
 * UNAVAILABLE (Fragment cannot answer: timeout, 5xx, dead session, Cloudflare, protocol drift)
 * and RATE_LIMITED (our own protective budget is spent, or Fragment answered 429). Neither is
 * ever turned into a guessed answer.
 */
import { FragmentError } from '../errors';

export type ReadErrorKind = 'UNAVAILABLE' | 'RATE_LIMITED';

/** Why, for logs and metrics (bounded set, no ids). */
export type ReadErrorReason =
  | 'upstream_timeout'
  | 'upstream_unavailable'
  | 'upstream_rate_limited'
  | 'upstream_cooldown'
  | 'session_invalid'
  | 'cloudflare'
  | 'unexpected_response'
  | 'upstream_rejected'
  | 'deadline'
  | 'username_budget'
  | 'global_budget'
  | 'internal';

export class ReadError extends Error {
  readonly kind: ReadErrorKind;
  readonly reason: ReadErrorReason;
  /** How long the caller should wait before asking again, when known. */
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: ReadErrorKind,
    reason: ReadErrorReason,
    message: string,
    options: { retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ReadError';
    this.kind = kind;
    this.reason = reason;
    this.retryAfterMs = options.retryAfterMs;
  }

  toJSON(): { kind: ReadErrorKind; reason: ReadErrorReason; message: string; retryAfterMs?: number } {
    return {
      kind: this.kind,
      reason: this.reason,
      message: this.message,
      ...(this.retryAfterMs !== undefined ? { retryAfterMs: this.retryAfterMs } : {}),
    };
  }

  static fromJSON(value: unknown): ReadError {
    const v = (value ?? {}) as Record<string, unknown>;
    const kind: ReadErrorKind = v.kind === 'RATE_LIMITED' ? 'RATE_LIMITED' : 'UNAVAILABLE';
    const reason = (typeof v.reason === 'string' ? v.reason : 'internal') as ReadErrorReason;
    const retryAfterMs =
      typeof v.retryAfterMs === 'number' && Number.isFinite(v.retryAfterMs) ? v.retryAfterMs : undefined;
    return new ReadError(
      kind,
      reason,
      typeof v.message === 'string' ? v.message : 'upstream read failed',
      retryAfterMs !== undefined ? { retryAfterMs } : {},
    );
  }
}

export function isReadError(error: unknown, kind?: ReadErrorKind): error is ReadError {
  return error instanceof ReadError && (kind === undefined || error.kind === kind);
}

/**
 * Maps any failure of an upstream read to a ReadError. Business answers (recipient not found …)
 * are not failures and must be handled by the caller before this.
 */
export function toReadError(error: unknown): ReadError {
  if (error instanceof ReadError) return error;
  if (error instanceof FragmentError) {
    const options = { cause: error, ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}) };
    switch (error.kind) {
      case 'RATE_LIMITED':
        return new ReadError(
          'RATE_LIMITED',
          'upstream_rate_limited',
          `Fragment rate-limited ${error.method ?? 'the read'}`,
          options,
        );
      case 'UPSTREAM_UNAVAILABLE':
        return new ReadError(
          'UNAVAILABLE',
          error.timedOut ? 'upstream_timeout' : 'upstream_unavailable',
          error.message,
          options,
        );
      case 'SESSION_INVALID':
      case 'VERIFICATION_REQUIRED':
        return new ReadError('UNAVAILABLE', 'session_invalid', error.message, options);
      case 'CLOUDFLARE':
        return new ReadError('UNAVAILABLE', 'cloudflare', error.message, options);
      case 'UNEXPECTED_RESPONSE':
        return new ReadError('UNAVAILABLE', 'unexpected_response', error.message, options);
      default:
        return new ReadError('UNAVAILABLE', 'upstream_rejected', error.message, options);
    }
  }
  return new ReadError('UNAVAILABLE', 'internal', error instanceof Error ? error.message : String(error), {
    cause: error,
  });
}

/** Settles with `promise`, or rejects UNAVAILABLE/deadline after `deadlineMs` (the read keeps running). */
export function withReadDeadline<T>(
  promise: Promise<T>,
  deadlineMs: number,
  mapError: (error: unknown) => Error = (error) => (error instanceof Error ? error : new Error(String(error))),
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ReadError('UNAVAILABLE', 'deadline', `Fragment did not answer within ${deadlineMs} ms`)),
      deadlineMs,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(mapError(error));
      },
    );
  });
}
