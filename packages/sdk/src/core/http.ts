import {
  APIConnectionError,
  APIResponseValidationError,
  APITimeoutError,
  errorClassFor,
  StarsgateError,
} from './errors.js';
import { retryDelayMs, retryAfterMs } from './retry.js';

import { SDK_VERSION } from './version.js';

export { SDK_VERSION };

/** One API call. `body` may hold a seed: it is sent, never logged, never put on an error. */
export interface Operation {
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  query?: Record<string, string | number>;
  /** A GET, a POST carrying its idempotency key, or a POST that stores nothing. */
  replaySafe: boolean;
  /** Adds `replayed` from the Idempotent-Replayed header. */
  reportsReplay?: boolean;
}

export interface TransportOptions {
  baseURL: string;
  timeout: number;
  maxRetries: number;
  headers: Record<string, string>;
  /** Adds X-Starsgate-Retry-Count to retries. */
  countRetries: boolean;
  fetch: typeof fetch;
  sleep: (ms: number) => Promise<void>;
  randomFraction: () => number;
}

type Outcome = { response: Response } | { error: StarsgateError };

export class Transport {
  constructor(private readonly options: TransportOptions) {}

  async call<T>(op: Operation): Promise<T> {
    const label = `${op.method} ${op.path}`;
    for (let attempt = 0; ; attempt++) {
      const outcome = await this.attempt(op, label, attempt);
      if ('response' in outcome && outcome.response.ok) {
        const data = await jsonObject(outcome.response, label);
        if (op.reportsReplay) data.replayed = outcome.response.headers.get('idempotent-replayed') === 'true';
        return data as T;
      }
      const response = 'response' in outcome ? outcome.response : undefined;
      const error = 'error' in outcome ? outcome.error : await statusError(outcome.response, label);
      const delay = retryDelayMs(
        attempt,
        this.options.maxRetries,
        op.replaySafe,
        response,
        this.options.randomFraction,
      );
      if (delay === undefined) throw error;
      await this.options.sleep(delay);
    }
  }

  private async attempt(op: Operation, label: string, attempt: number): Promise<Outcome> {
    const url = new URL(this.options.baseURL + op.path);
    for (const [name, value] of Object.entries(op.query ?? {})) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { Accept: 'application/json', ...this.options.headers };
    if (op.body) headers['Content-Type'] = 'application/json';
    if (attempt > 0 && this.options.countRetries) headers['X-Starsgate-Retry-Count'] = String(attempt);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, this.options.timeout);
    try {
      const response = await this.options.fetch(url, {
        method: op.method,
        headers,
        body: op.body ? JSON.stringify(op.body) : undefined,
        signal: controller.signal,
        redirect: 'manual',
      });
      // The body is read before the timer stops, so a stalled body is a timeout too.
      const text = await response.text();
      return { response: new Response(text, { status: response.status, headers: response.headers }) };
    } catch (cause) {
      // Only the class of the failure and the route: fetch's own error is left behind.
      const kind = cause instanceof Error ? cause.name : typeof cause;
      return {
        error: timedOut
          ? new APITimeoutError(`No answer from ${label} within ${this.options.timeout} ms.`, {
              request: label,
              action: 'Retry; a purchase or checkout retried with the same idempotency_key is never duplicated.',
            })
          : new APIConnectionError(`Could not reach the gateway for ${label} (${kind}).`, {
              request: label,
              action: 'Check baseURL and that the gateway is running.',
            }),
      };
    } finally {
      clearTimeout(timer);
    }
  }
}

async function statusError(response: Response, label: string): Promise<StarsgateError> {
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = await response.json();
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON (a proxy's HTML page): the status still picks the class
  }
  const text = (key: string) => {
    const value = body[key];
    return typeof value === 'string' ? value : undefined;
  };
  const code = text('code');
  const headerWait = retryAfterMs(response.headers);
  const retryAfter =
    headerWait !== undefined ? headerWait / 1000 : typeof body.retry_after === 'number' ? body.retry_after : undefined;
  const ErrorClass = errorClassFor(response.status, code);
  return new ErrorClass(text('message') ?? `HTTP ${response.status} from ${label}`, {
    status: response.status,
    code,
    details: Array.isArray(body.details) ? (body.details as Array<Record<string, unknown>>) : [],
    action: text('action'),
    retryAfter,
    requestId: text('request_id') ?? response.headers.get('request-id') ?? undefined,
    request: label,
  });
}

async function jsonObject(response: Response, label: string): Promise<Record<string, unknown>> {
  const parsed: unknown = await response.json().catch(() => undefined);
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  throw new APIResponseValidationError(`${label} answered ${response.status} with a body that is not a JSON object.`, {
    status: response.status,
    code: 'UNEXPECTED_RESPONSE',
    requestId: response.headers.get('request-id') ?? undefined,
    request: label,
  });
}
