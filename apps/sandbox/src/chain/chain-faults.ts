import { ToncenterRateLimiter, type ToncenterRateLimit } from '../toncenter/rate-limiter';

/**
 * Chain fault switches, set at start (SANDBOX_FAULTS JSON) or live via PUT /admin/faults.
 *
 * - `dropExternals`: sendBoc answers success but the message is never included.
 * - `inclusionDelayMs`: accepted externals wait this much longer before a block includes them.
 * - `http5xx`: the toncenter API answers 5xx (`status`, default 502) instead of serving.
 * - `http429`: the toncenter API answers 429 "Ratelimit exceed" with Retry-After `retryAfterSec`.
 * - `latency`: every toncenter API request waits a uniform draw from `minMs..maxMs` first, as a
 *   remote provider's round trip does.
 * - `rateLimit`: toncenter's request limit, `{ rps, keylessRps? }` (see toncenter/rate-limiter.ts):
 *   requests beyond it get toncenter's real 429. Off unless set.
 *
 * Each of dropExternals / http5xx / http429 fires for the `next` N occurrences (counted down)
 * and/or with probability `rate` (0..1) afterwards.
 */
export interface FaultTrigger {
  /** Probability 0..1 for every occurrence. */
  rate?: number;
  /** Fire for the next N occurrences (decremented as it fires). */
  next?: number;
}

export interface ChainFaultConfig {
  dropExternals?: FaultTrigger;
  latency?: { minMs: number; maxMs: number };
  inclusionDelayMs?: number;
  http5xx?: FaultTrigger & { status?: number };
  http429?: FaultTrigger & { retryAfterSec?: number };
  rateLimit?: ToncenterRateLimit;
}

export interface HttpFault {
  status: number;
  body: { ok: false; error?: string; result?: string; code: number };
  headers: Record<string, string>;
}

export class ChainFaultError extends Error {}

/** toncenter's answer beyond its limit (docs/ton.md §9). */
export function rateLimitedAnswer(retryAfterSec: number): HttpFault {
  return {
    status: 429,
    body: { ok: false, result: 'Ratelimit exceed', code: 429 },
    headers: { 'Retry-After': String(Math.ceil(retryAfterSec)) },
  };
}

function validRate(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 100_000)
    throw new ChainFaultError(`${name} must be a number of requests per second in (0, 100000]`);
  return value;
}

function parseRateLimit(input: unknown): ToncenterRateLimit | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'object' || Array.isArray(input)) throw new ChainFaultError('rateLimit must be an object');
  const src = input as Record<string, unknown>;
  for (const k of Object.keys(src))
    if (k !== 'rps' && k !== 'keylessRps') throw new ChainFaultError(`unknown rateLimit field "${k}"`);
  return {
    rps: validRate('rateLimit.rps', src['rps']),
    ...(src['keylessRps'] !== undefined ? { keylessRps: validRate('rateLimit.keylessRps', src['keylessRps']) } : {}),
  };
}

function validTrigger(name: string, t: unknown): FaultTrigger | undefined {
  if (t === undefined || t === null) return undefined;
  if (typeof t !== 'object') throw new ChainFaultError(`${name} must be an object`);
  const { rate, next } = t as Record<string, unknown>;
  if (rate !== undefined && (typeof rate !== 'number' || !(rate >= 0 && rate <= 1)))
    throw new ChainFaultError(`${name}.rate must be a number in 0..1`);
  if (next !== undefined && (typeof next !== 'number' || !Number.isInteger(next) || next < 0))
    throw new ChainFaultError(`${name}.next must be a non-negative integer`);
  return { ...(rate !== undefined ? { rate } : {}), ...(next !== undefined ? { next } : {}) };
}

/** Validates untrusted JSON (env or admin endpoint) into a fault config. */
export function parseFaultConfig(input: unknown): ChainFaultConfig {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ChainFaultError('faults must be a JSON object');
  const src = input as Record<string, unknown>;
  const known = new Set(['dropExternals', 'inclusionDelayMs', 'http5xx', 'http429', 'latency', 'rateLimit']);
  for (const k of Object.keys(src)) if (!known.has(k)) throw new ChainFaultError(`unknown fault "${k}"`);
  const out: ChainFaultConfig = {};
  const drop = validTrigger('dropExternals', src['dropExternals']);
  if (drop) out.dropExternals = drop;
  if (src['inclusionDelayMs'] !== undefined) {
    const d = src['inclusionDelayMs'];
    if (typeof d !== 'number' || !Number.isFinite(d) || d < 0)
      throw new ChainFaultError('inclusionDelayMs must be a non-negative number');
    out.inclusionDelayMs = d;
  }
  if (src['latency'] !== undefined && src['latency'] !== null) {
    const { minMs, maxMs } = src['latency'] as Record<string, unknown>;
    if (
      typeof minMs !== 'number' ||
      typeof maxMs !== 'number' ||
      !Number.isFinite(maxMs) ||
      !(minMs >= 0 && maxMs >= minMs)
    )
      throw new ChainFaultError('latency must be { minMs, maxMs } with 0 <= minMs <= maxMs');
    out.latency = { minMs, maxMs };
  }
  const h5 = validTrigger('http5xx', src['http5xx']);
  if (h5) {
    const status = (src['http5xx'] as Record<string, unknown>)['status'];
    if (status !== undefined && (typeof status !== 'number' || status < 500 || status > 599))
      throw new ChainFaultError('http5xx.status must be 500..599');
    out.http5xx = { ...h5, ...(status !== undefined ? { status } : {}) };
  }
  const h4 = validTrigger('http429', src['http429']);
  if (h4) {
    const retry = (src['http429'] as Record<string, unknown>)['retryAfterSec'];
    if (retry !== undefined && (typeof retry !== 'number' || retry < 0))
      throw new ChainFaultError('http429.retryAfterSec must be >= 0');
    out.http429 = { ...h4, ...(retry !== undefined ? { retryAfterSec: retry } : {}) };
  }
  const rateLimit = parseRateLimit(src['rateLimit']);
  if (rateLimit) out.rateLimit = rateLimit;
  return out;
}

export class ChainFaults {
  private config: ChainFaultConfig;
  /** How often each switch fired, for tests and the admin endpoint. */
  readonly fired = { dropExternals: 0, http5xx: 0, http429: 0 };
  /** toncenter's request limit (`rateLimit`), and the count of every toncenter request. */
  readonly rateLimiter: ToncenterRateLimiter;

  constructor(
    initial: ChainFaultConfig = {},
    private readonly random: () => number = Math.random,
  ) {
    this.config = parseFaultConfig(initial);
    this.rateLimiter = new ToncenterRateLimiter();
    this.rateLimiter.configure(this.config.rateLimit);
  }

  get(): ChainFaultConfig {
    return structuredClone(this.config);
  }

  /** Replaces the whole configuration ({} clears every fault). */
  set(config: unknown): ChainFaultConfig {
    this.config = parseFaultConfig(config);
    this.rateLimiter.configure(this.config.rateLimit);
    return this.get();
  }

  private fire(trigger: FaultTrigger | undefined): boolean {
    if (!trigger) return false;
    if (trigger.next !== undefined && trigger.next > 0) {
      trigger.next--;
      return true;
    }
    return trigger.rate !== undefined && trigger.rate > 0 && this.random() < trigger.rate;
  }

  /** Whether an accepted external is to be silently dropped. */
  takeDropExternal(): boolean {
    const hit = this.fire(this.config.dropExternals);
    if (hit) this.fired.dropExternals++;
    return hit;
  }

  /** How long this toncenter request waits before it is served (0 without a latency setting). */
  latencyMs(): number {
    const range = this.config.latency;
    if (!range) return 0;
    return Math.round(range.minMs + this.random() * (range.maxMs - range.minMs));
  }

  inclusionDelayMs(): number {
    return this.config.inclusionDelayMs ?? 0;
  }

  /** An HTTP fault to answer this toncenter request with, if any (429 checked first). */
  takeHttpFault(): HttpFault | null {
    if (this.fire(this.config.http429)) {
      this.fired.http429++;
      return rateLimitedAnswer(this.config.http429?.retryAfterSec ?? 1);
    }
    if (this.fire(this.config.http5xx)) {
      this.fired.http5xx++;
      const status = this.config.http5xx?.status ?? 502;
      return {
        status,
        body: {
          ok: false,
          error: status === 504 ? 'Gateway Timeout' : 'LITE_SERVER_NETWORK: sandbox fault injection',
          code: status,
        },
        headers: {},
      };
    }
    return null;
  }
}
