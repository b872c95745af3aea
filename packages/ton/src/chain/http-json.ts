import { request } from 'undici';
import { ChainRequestError, ChainResponseError, ChainUnavailableError } from './chain-errors';
import type { RequestPacer } from './request-pacer';

export interface HttpJsonOptions {
  provider: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Retries for reads on 429 / 5xx / network errors; 0 for sends. */
  maxRetries: number;
  /** First backoff step; doubles per attempt, capped at 2 s (Retry-After honoured up to 5 s). */
  baseDelayMs?: number;
  /** Every attempt waits for its turn; a 429 pauses every caller of the pacer instead of this one only. */
  pacer?: RequestPacer;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Retry-After in seconds (toncenter's form); an HTTP date or garbage counts as absent. */
function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const seconds = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

async function waitForTurn(pacer: RequestPacer, provider: string): Promise<void> {
  try {
    await pacer.acquire();
  } catch (error) {
    throw new ChainUnavailableError(`${provider}: no request slot (${(error as Error).message})`, provider, undefined, {
      cause: error,
    });
  }
}

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
  let rateLimited = false;
  for (let attempt = 0; attempt <= opts.maxRetries; attempt += 1) {
    // After a 429 the pacer already holds every caller back: its turn is the wait.
    if (attempt > 0 && !(rateLimited && opts.pacer)) await sleep(Math.min(2000, base * 2 ** (attempt - 1)));
    if (opts.pacer) await waitForTurn(opts.pacer, opts.provider);
    rateLimited = false;
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
      const retryAfter = retryAfterMs(retryAfterHeader);
      if (status === 429 && opts.pacer) {
        rateLimited = true;
        await opts.pacer.rateLimited(retryAfter).catch(() => undefined);
      } else if (retryAfter !== undefined && attempt < opts.maxRetries) await sleep(Math.min(5000, retryAfter));
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
