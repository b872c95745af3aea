/** When to try again, shared by every call. Mirrors the Python SDK's `_core.retry_delay`. */

export const INITIAL_RETRY_DELAY_MS = 500;
export const MAX_RETRY_DELAY_MS = 8_000;
export const RETRY_JITTER = 0.25;
/** A Retry-After longer than this is not waited for inside one call: the error carries `retryAfter`. */
export const MAX_RETRY_AFTER_MS = 60_000;
/** The request did not take effect (429, 503) or may be replayed safely with the same key (408, 500, 502, 504). */
export const RETRYABLE_STATUSES = new Set([408, 429, 500, 502, 503, 504]);

/** `retry-after-ms`, then `Retry-After` in seconds or as an HTTP date; milliseconds. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms)) return Math.max(0, ms);
  const raw = headers.get('retry-after');
  if (!raw) return undefined;
  const seconds = Number(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Milliseconds before the next attempt, or undefined when the outcome is final. `replaySafe`: a
 * GET, a POST carrying its idempotency key, or a POST that stores nothing; any other POST is
 * never retried, since a retry could create a second order.
 */
export function retryDelayMs(
  attempt: number,
  maxRetries: number,
  replaySafe: boolean,
  response: Response | undefined,
  randomFraction: () => number = Math.random,
): number | undefined {
  if (attempt >= maxRetries || !replaySafe) return undefined;
  if (response) {
    const shouldRetry = response.headers.get('x-should-retry');
    if (shouldRetry === 'false') return undefined;
    if (shouldRetry !== 'true' && !RETRYABLE_STATUSES.has(response.status)) return undefined;
    const wait = retryAfterMs(response.headers);
    if (wait !== undefined) return wait <= MAX_RETRY_AFTER_MS ? wait : undefined;
  }
  const backoff = Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS);
  return backoff * (1 - RETRY_JITTER * randomFraction());
}
