/**
 * The order system's HTTP client, well behaved: every request has a timeout; a timeout, a
 * connection error, a 5xx, a 429 or a 409 "request in progress" is retried after a backoff (or the
 * Retry-After asked for) with the very same body, so a purchase retry reuses its Idempotency-Key.
 */
import { sleep } from '@starsgate/stack';
import type { SeededRandom } from './random';

export interface HttpCounters {
  /** Requests put on the wire (first tries and retries). */
  sent: number;
  retries: number;
  timeouts: number;
  connectionErrors: number;
  byStatus: Record<string, number>;
  /** Logical requests that still failed after every retry. */
  gaveUp: number;
  /** 500 answers (each one is a finding: the service must say 503 or a 4xx it knows). */
  internalErrors: Array<{ method: string; path: string; code: string }>;
}

export interface JsonAnswer {
  status: number;
  body: Record<string, unknown>;
}

/** The stable error code of an answer body ('' when there is none). */
export function codeOf(body: Record<string, unknown>): string {
  return typeof body['code'] === 'string' ? body['code'] : '';
}

const RETRYABLE_CODES = new Set(['IDEMPOTENCY_REQUEST_IN_PROGRESS']);

export class HttpClient {
  readonly counters: HttpCounters = {
    sent: 0,
    retries: 0,
    timeouts: 0,
    connectionErrors: 0,
    byStatus: {},
    gaveUp: 0,
    internalErrors: [],
  };

  constructor(
    private readonly baseUrl: string,
    private readonly random: SeededRandom,
    private readonly options: {
      timeoutMs: number;
      maxTries: number;
      headers?: Record<string, string>;
      /** Retry a 500 too (the service's clients do; toncenter's 500 is a refused message, final). */
      retryInternalError?: boolean;
    } = { timeoutMs: 10_000, maxTries: 12 },
  ) {}

  /**
   * One logical request, retried until an answer that is not worth retrying (2xx, 4xx) or the
   * tries run out (then the last error is thrown).
   */
  async request(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    let lastError = 'no try';
    for (let attempt = 1; attempt <= this.options.maxTries; attempt++) {
      if (attempt > 1) this.counters.retries += 1;
      this.counters.sent += 1;
      let waitMs = Math.min(8_000, 250 * 2 ** (attempt - 1)) * (0.5 + this.random.next());
      try {
        const response = await fetch(`${this.baseUrl}${path}`, {
          method,
          headers: {
            accept: 'application/json',
            ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
            ...this.options.headers,
          },
          ...(payload !== undefined ? { body: payload } : {}),
          signal: AbortSignal.timeout(this.options.timeoutMs),
        });
        const text = await response.text();
        this.counters.byStatus[response.status] = (this.counters.byStatus[response.status] ?? 0) + 1;
        let parsed: Record<string, unknown> = {};
        try {
          parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        } catch {
          parsed = { raw: text.slice(0, 200) };
        }
        if (response.status === 500)
          this.counters.internalErrors.push({ method, path, code: codeOf(parsed) || 'none' });
        const retryable =
          (response.status >= 500 && (response.status !== 500 || this.options.retryInternalError !== false)) ||
          response.status === 429 ||
          (response.status === 409 && RETRYABLE_CODES.has(codeOf(parsed)));
        if (!retryable) return { status: response.status, body: parsed };
        lastError = `HTTP ${response.status} ${codeOf(parsed)}`;
        const retryAfter = Number(response.headers.get('retry-after') ?? parsed['retry_after']);
        if (Number.isFinite(retryAfter) && retryAfter > 0) waitMs = Math.min(retryAfter, 10) * 1000;
      } catch (error) {
        const name = (error as { name?: string }).name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          this.counters.timeouts += 1;
          lastError = 'timeout';
        } else {
          this.counters.connectionErrors += 1;
          lastError =
            error instanceof Error ? `${error.message} ${String((error.cause as Error)?.message ?? '')}` : 'error';
        }
      }
      await sleep(waitMs);
    }
    this.counters.gaveUp += 1;
    throw new Error(`${method} ${path}: gave up after ${this.options.maxTries} tries (${lastError})`);
  }
}
