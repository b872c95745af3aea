/**
 * toncenter's request limit as the sandbox enforces it (docs/ton.md §9): each API key gets
 * `rps` requests per second, requests without a key share `keylessRps` (toncenter's 1). A token
 * bucket per key, holding at most one second's worth, so a client that spaces its requests at the
 * limit always passes and one that bursts past it gets 429s.
 */
export interface ToncenterRateLimit {
  /** Requests per second per API key. */
  rps: number;
  /** Requests per second shared by every request without a key (default 1, as toncenter). */
  keylessRps?: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSec: number };

interface Bucket {
  tokens: number;
  at: number;
}

const KEYLESS = '';

export class ToncenterRateLimiter {
  private limit: ToncenterRateLimit | undefined;
  private readonly buckets = new Map<string, Bucket>();
  /**
   * Every toncenter request seen, with and without a key, and those answered 429 by this limit
   * (not by the http429 fault): how a run measures the service's requests per purchase.
   */
  readonly counts = { keyed: { requests: 0, rateLimited: 0 }, keyless: { requests: 0, rateLimited: 0 } };

  constructor(private readonly now: () => number = () => performance.now()) {}

  configure(limit: ToncenterRateLimit | undefined): void {
    this.limit = limit;
    this.buckets.clear();
  }

  /** Counts the request and takes a token of its key's bucket when a limit is set. */
  take(apiKey: string | undefined): RateDecision {
    const key = apiKey ?? KEYLESS;
    const counts = key === KEYLESS ? this.counts.keyless : this.counts.keyed;
    counts.requests++;
    if (!this.limit) return { allowed: true };
    const rate = key === KEYLESS ? (this.limit.keylessRps ?? 1) : this.limit.rps;
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: rate, at: now };
    bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true };
    }
    counts.rateLimited++;
    return { allowed: false, retryAfterSec: Math.max(1, Math.ceil((1 - bucket.tokens) / rate)) };
  }
}
