import { request } from 'undici';
import { ChainRequestError, ChainResponseError, ChainUnavailableError } from './chain-errors';

export interface HttpJsonOptions {
  provider: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Retries for reads on 429 / 5xx / network errors; 0 for sends. */
  maxRetries: number;
  /** First backoff step; doubles per attempt, capped at 2 s (Retry-After honoured up to 5 s). */
  baseDelayMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Provider error text, trimmed: never includes our request headers (where the API key lives). */
function errorText(body: unknown): string {
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const text = b['error'] ?? b['result'] ?? b['message'];
    if (typeof text === 'string') return text.slice(0, 300);
  }
  return '';
}

/**
 * HTTP + JSON with typed errors and capped exponential backoff for retryable failures. Over
 * undici's `request` rather than `fetch`: the worker polls providers constantly, and `fetch`'s
 * WHATWG stream layers cost several times the CPU per call.
 */
export async function httpJson(
  url: string,
  init: { method: 'GET' | 'POST'; body?: unknown; allowEmpty?: boolean },
  opts: HttpJsonOptions,
): Promise<unknown> {
  const base = opts.baseDelayMs ?? 200;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt <= opts.maxRetries; attempt += 1) {
    if (attempt > 0) await sleep(Math.min(2000, base * 2 ** (attempt - 1)));
    let status: number;
    let retryAfterHeader: string | string[] | undefined;
    let text: string;
    try {
      const response = await request(url, {
        method: init.method,
        headers: {
          accept: 'application/json',
          ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...opts.headers,
        },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
      status = response.statusCode;
      retryAfterHeader = response.headers['retry-after'];
      text = await response.body.text().catch(() => '');
    } catch (error) {
      lastError = new ChainUnavailableError(
        `${opts.provider}: request failed (${(error as Error).name})`,
        opts.provider,
        undefined,
        { cause: error },
      );
      continue;
    }
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (status === 429 || status >= 500) {
      lastError = new ChainUnavailableError(
        `${opts.provider}: HTTP ${status} ${errorText(body)}`.trim(),
        opts.provider,
        status,
      );
      const retryAfter = Number(Array.isArray(retryAfterHeader) ? retryAfterHeader[0] : retryAfterHeader);
      if (Number.isFinite(retryAfter) && retryAfter > 0 && attempt < opts.maxRetries)
        await sleep(Math.min(5000, retryAfter * 1000));
      continue;
    }
    if (status >= 400) {
      throw new ChainRequestError(`${opts.provider}: HTTP ${status} ${errorText(body)}`.trim(), opts.provider, status);
    }
    if (body === undefined && init.allowEmpty && text.trim().length === 0) return undefined;
    if (body === undefined)
      throw new ChainResponseError(`${opts.provider}: response is not JSON`, opts.provider, status);
    return body;
  }
  throw lastError ?? new ChainUnavailableError(`${opts.provider}: unavailable`, opts.provider);
}
