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

/** fetch + JSON with typed errors and capped exponential backoff for retryable failures. */
export async function httpJson(url: string, init: { method: 'GET' | 'POST'; body?: unknown; allowEmpty?: boolean }, opts: HttpJsonOptions): Promise<unknown> {
  const base = opts.baseDelayMs ?? 200;
  let lastError: Error | undefined;
  for (let attempt = 0; attempt <= opts.maxRetries; attempt += 1) {
    if (attempt > 0) await sleep(Math.min(2000, base * 2 ** (attempt - 1)));
    let response: Response;
    try {
      response = await fetch(url, {
        method: init.method,
        headers: { accept: 'application/json', ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
        body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (error) {
      lastError = new ChainUnavailableError(`${opts.provider}: request failed (${(error as Error).name})`, opts.provider, undefined, { cause: error });
      continue;
    }
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text.length > 0 ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (response.status === 429 || response.status >= 500) {
      lastError = new ChainUnavailableError(`${opts.provider}: HTTP ${response.status} ${errorText(body)}`.trim(), opts.provider, response.status);
      const retryAfter = Number(response.headers.get('retry-after'));
      if (Number.isFinite(retryAfter) && retryAfter > 0 && attempt < opts.maxRetries) await sleep(Math.min(5000, retryAfter * 1000));
      continue;
    }
    if (response.status >= 400) {
      throw new ChainRequestError(`${opts.provider}: HTTP ${response.status} ${errorText(body)}`.trim(), opts.provider, response.status);
    }
    if (body === undefined && init.allowEmpty && text.trim().length === 0) return undefined;
    if (body === undefined) throw new ChainResponseError(`${opts.provider}: response is not JSON`, opts.provider, response.status);
    return body;
  }
  throw lastError ?? new ChainUnavailableError(`${opts.provider}: unavailable`, opts.provider);
}
