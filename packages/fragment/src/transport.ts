/**
 * HTTP to Fragment over undici's `request` (Node's own HTTP client, without the WHATWG stream layers
 * that make `fetch` cost several times more CPU per call): headers of docs/fragment-protocol.md §3.3, per-call timeout,
 * pacing between calls, the cookie jar fed from every response, the login's proxy if it has one,
 * and the mapping of HTTP-level failures (429, Cloudflare 403/503, 401/403, 5xx, network, timeout)
 * to FragmentError.
 *
 * Business errors inside a JSON 200 (`error`, `need_verify`, …) are the client's to interpret;
 * the transport only guarantees it returns a JSON object.
 *
 * `withRetries` is the read-retry policy. The transport never retries by itself: whether a call
 * may be repeated is the caller's decision (init and confirm must not be:
 * docs/purchase-safety.md, Unknown outcomes).
 */
import { promisify } from 'node:util';
import { brotliDecompress, gunzip, inflate } from 'node:zlib';
import { ProxyAgent, request, type Dispatcher } from 'undici';
import { cloudflarePageKind, cloudflareStop, type CloudflareStop } from './cloudflare';
import { FragmentError } from './errors';
import { redactCookies, type CookieJar } from './session';

export interface FragmentLogger {
  debug(message: string, meta?: Record<string, unknown>): void;
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

export const silentLogger: FragmentLogger = { debug() {}, info() {}, warn() {} };

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36';

export interface TransportOptions {
  baseUrl: string;
  jar: CookieJar;
  userAgent: string;
  timeoutMs: number;
  minIntervalMs: number;
  logger: FragmentLogger;
  sleep?: (ms: number) => Promise<void>;
  /**
   * An HTTP or HTTPS proxy every call of this login goes through (undici's ProxyAgent: CONNECT
   * tunnels), for hosts whose own address Cloudflare blocks. May carry credentials: never logged.
   */
  proxyUrl?: string;
}

/** `http://user:secret@proxy:3128` → `http://proxy:3128`: a proxy's name fit for a log line. */
export function proxyLabel(proxyUrl: string): string {
  try {
    const url = new URL(proxyUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return '[unparseable proxy URL]';
  }
}

export interface PageResponse {
  status: number;
  body: string;
}

/** Browsers send Accept-Encoding, so we do too, and decode every answer (Cloudflare's error pages included: their text is how a challenge is recognised). */
const ACCEPT_ENCODING = 'gzip, deflate, br';
const DECODERS: Record<string, (data: Buffer) => Promise<Buffer>> = {
  gzip: promisify(gunzip),
  'x-gzip': promisify(gunzip),
  deflate: promisify(inflate),
  br: promisify(brotliDecompress),
};

async function decodeBody(data: Buffer, contentEncoding: string | string[] | undefined): Promise<string> {
  const encoding = (Array.isArray(contentEncoding) ? contentEncoding.join(',') : (contentEncoding ?? ''))
    .trim()
    .toLowerCase();
  if (encoding === '' || encoding === 'identity') return data.toString('utf8');
  const decoder = DECODERS[encoding];
  if (!decoder) throw new Error(`unsupported Content-Encoding ${encoding}`);
  return (await decoder(data)).toString('utf8');
}

/** What the transport keeps of an HTTP answer: status, headers by lower-case name, the body once. */
interface HttpAnswer {
  status: number;
  header(name: string): string | null;
  text(): Promise<string>;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Connection errors that prove the request never left this host. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** `Retry-After` as milliseconds (delta-seconds or HTTP-date); undefined if absent or invalid. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

export class Transport {
  readonly baseUrl: string;
  readonly origin: string;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly dispatcher: Dispatcher | undefined;
  private lastRequestAt = 0;

  constructor(private readonly options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.baseUrl).origin;
    this.wait = options.sleep ?? sleep;
    this.dispatcher = options.proxyUrl ? new ProxyAgent(options.proxyUrl) : undefined;
  }

  /** GET a page (a pack's `page`), redirects not followed (a redirect means no access). */
  async getPage(path: string): Promise<PageResponse> {
    const label = `GET ${path}`;
    const response = await this.send(label, `${this.baseUrl}${path}`, {
      method: 'GET',
      headers: {
        Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
        'Accept-Language': 'en-US,en;q=0.9',
        'User-Agent': this.options.userAgent,
        Cookie: this.options.jar.cookieHeader(),
      },
    });
    const body = await this.readBody(label, response, false);
    this.failOnHttpStatus(label, response, body, false);
    return { status: response.status, body };
  }

  /**
   * POST `/api?hash=…` with a form body. `mayHaveExecuted` marks non-idempotent calls, for which a
   * lost answer is reported as an unknown outcome.
   */
  async postApi(
    hash: string,
    method: string,
    formBody: string,
    refererPath: string,
    mayHaveExecuted: boolean,
  ): Promise<Record<string, unknown>> {
    const response = await this.send(
      method,
      `${this.baseUrl}/api?hash=${encodeURIComponent(hash)}`,
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8',
          Accept: 'application/json, text/javascript, */*; q=0.01',
          'Accept-Language': 'en-US,en;q=0.9',
          'X-Requested-With': 'XMLHttpRequest',
          Origin: this.origin,
          Referer: `${this.baseUrl}${refererPath}`,
          'User-Agent': this.options.userAgent,
          Cookie: this.options.jar.cookieHeader(),
        },
        body: formBody,
      },
      mayHaveExecuted,
    );
    const { status } = response;
    const body = await this.readBody(method, response, mayHaveExecuted);
    this.failOnHttpStatus(method, response, body, mayHaveExecuted);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      const stop = cloudflarePageKind(body);
      if (stop !== undefined) throw this.cloudflareError(method, stop, status, undefined, false);
      throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${method}: answer is not JSON (HTTP ${status})`, {
        method,
        httpStatus: status,
        outcomeUnknown: mayHaveExecuted,
      });
    }
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new FragmentError('UNEXPECTED_RESPONSE', `Fragment ${method}: answer is not a JSON object`, {
        method,
        httpStatus: status,
        outcomeUnknown: mayHaveExecuted,
      });
    }
    return parsed as Record<string, unknown>;
  }

  /** Pacing + timeout + network error mapping around the request; stores Set-Cookie. */
  private async send(
    label: string,
    url: string,
    init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
    mayHaveExecuted = false,
  ): Promise<HttpAnswer> {
    const { minIntervalMs, timeoutMs, logger, jar } = this.options;
    if (minIntervalMs > 0) {
      const due = this.lastRequestAt + minIntervalMs - Date.now();
      if (due > 0) await this.wait(due);
    }
    this.lastRequestAt = Date.now();
    const started = Date.now();
    let answer: Awaited<ReturnType<typeof request>>;
    try {
      // Redirects are not followed (undici's default): a redirect means the page is not ours to see.
      answer = await request(url, {
        method: init.method,
        headers: { ...init.headers, 'Accept-Encoding': ACCEPT_ENCODING },
        body: init.body,
        signal: AbortSignal.timeout(timeoutMs),
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      });
    } catch (error) {
      throw this.networkError(label, error, mayHaveExecuted, timeoutMs);
    }
    const { statusCode, headers, body } = answer;
    const setCookie = headers['set-cookie'];
    jar.storeAll(setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie]);
    logger.debug(`fragment ${redactCookies(label)} -> ${statusCode} in ${Date.now() - started} ms`);
    return {
      status: statusCode,
      header: (name) => {
        const value = headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
      text: async () => decodeBody(Buffer.from(await body.arrayBuffer()), headers['content-encoding']),
    };
  }

  private async readBody(label: string, response: HttpAnswer, mayHaveExecuted: boolean): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      // Headers arrived, so the server handled the request; only its answer was lost.
      throw this.networkError(label, error, mayHaveExecuted, this.options.timeoutMs);
    }
  }

  private networkError(label: string, error: unknown, mayHaveExecuted: boolean, timeoutMs: number): FragmentError {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      return new FragmentError('UPSTREAM_UNAVAILABLE', `Fragment ${label}: no answer within ${timeoutMs} ms`, {
        method: label,
        timedOut: true,
        outcomeUnknown: mayHaveExecuted,
        cause: error,
      });
    }
    const code = errorCode(error);
    const notSent = code !== undefined && NOT_SENT_CODES.has(code);
    return new FragmentError('UPSTREAM_UNAVAILABLE', `Fragment ${label}: network error${code ? ` (${code})` : ''}`, {
      method: label,
      outcomeUnknown: mayHaveExecuted && !notSent,
      cause: error,
    });
  }

  /** CLOUDFLARE, with the one log line an operator looks for: this host is refused, not the login. */
  private cloudflareError(
    label: string,
    stop: CloudflareStop,
    status: number,
    retryAfterMs: number | undefined,
    outcomeUnknown: boolean,
  ): FragmentError {
    const via = this.options.proxyUrl ? ` through proxy ${proxyLabel(this.options.proxyUrl)}` : '';
    this.options.logger.warn(
      `fragment ${label}: blocked by Cloudflare (${stop}, HTTP ${status})${via}: the login is not at fault; retry later or use a proxy (FRAGMENT_PROXY_URL)`,
      { cloudflare: stop, httpStatus: status },
    );
    const what = stop === 'challenge' ? 'Cloudflare challenge' : 'blocked by Cloudflare';
    return new FragmentError('CLOUDFLARE', `Fragment ${label}: ${what} (HTTP ${status})`, {
      method: label,
      httpStatus: status,
      retryAfterMs,
      outcomeUnknown,
      cloudflare: stop,
    });
  }

  private failOnHttpStatus(label: string, response: HttpAnswer, body: string, mayHaveExecuted: boolean): void {
    const { status } = response;
    if (status >= 200 && status < 300) return;
    if (status === 429) {
      const retryAfterMs = parseRetryAfter(response.header('retry-after'));
      throw new FragmentError('RATE_LIMITED', `Fragment ${label}: HTTP 429 rate limited`, {
        method: label,
        httpStatus: status,
        retryAfterMs,
      });
    }
    const stop = cloudflareStop(status, (name) => response.header(name), body);
    if (stop !== undefined) {
      // A 503 that only Cloudflare's headers mark may be the origin's own, after it ran the call.
      const originMayHaveRun = status === 503 && cloudflarePageKind(body) === undefined && mayHaveExecuted;
      throw this.cloudflareError(
        label,
        stop,
        status,
        parseRetryAfter(response.header('retry-after')),
        originMayHaveRun,
      );
    }
    if (status === 401 || status === 403) {
      throw new FragmentError('SESSION_INVALID', `Fragment ${label}: HTTP ${status}, session not accepted`, {
        method: label,
        httpStatus: status,
      });
    }
    if (status >= 300 && status < 400) {
      throw new FragmentError(
        'SESSION_INVALID',
        `Fragment ${label}: redirected (HTTP ${status}); page not available to this session`,
        {
          method: label,
          httpStatus: status,
        },
      );
    }
    if (status >= 500) {
      throw new FragmentError('UPSTREAM_UNAVAILABLE', `Fragment ${label}: HTTP ${status}`, {
        method: label,
        httpStatus: status,
        outcomeUnknown: mayHaveExecuted,
        retryAfterMs: parseRetryAfter(response.header('retry-after')),
      });
    }
    throw new FragmentError('UPSTREAM_REJECTED', `Fragment ${label}: HTTP ${status}`, {
      method: label,
      httpStatus: status,
    });
  }
}

export interface RetryPolicy {
  /** Total tries including the first (default 3). */
  maxTries: number;
  /** First backoff (default 500 ms); doubles per try. */
  baseDelayMs: number;
  /** Backoff cap (default 8 000 ms). */
  maxDelayMs: number;
  /** Longest Retry-After honoured by waiting (default 60 000 ms); longer ones are surfaced. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxTries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

/**
 * Retries a read on 429 and on UPSTREAM_UNAVAILABLE (5xx, network, timeout): capped exponential
 * backoff with jitter, Retry-After honoured when ≤ maxRetryAfterMs. Cloudflare challenges are not
 * retried here: they clear after minutes to hours (docs/fragment-protocol.md §12), so the caller backs off instead.
 */
export async function withRetries<T>(
  label: string,
  policy: RetryPolicy,
  logger: FragmentLogger,
  wait: (ms: number) => Promise<void>,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let tryNumber = 1; ; tryNumber++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof FragmentError) || tryNumber >= policy.maxTries) throw error;
      if (error.kind !== 'RATE_LIMITED' && error.kind !== 'UPSTREAM_UNAVAILABLE') throw error;
      let delay: number;
      if (error.retryAfterMs !== undefined) {
        if (error.retryAfterMs > policy.maxRetryAfterMs) throw error;
        delay = error.retryAfterMs + Math.floor(Math.random() * 250);
      } else {
        const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (tryNumber - 1));
        // 75–100 % of the step: spreads retries of concurrent clients without shortening much.
        delay = Math.round(exponential * (0.75 + Math.random() * 0.25));
      }
      logger.warn(`fragment ${label}: ${error.kind}, retry ${tryNumber}/${policy.maxTries - 1} in ${delay} ms`);
      await wait(delay);
    }
  }
}
