import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { FragmentError } from './errors';

/**
 * One flow at a time per Fragment page session across every worker replica
 * (docs/fragment-protocol.md §20.1): a lease in Redis per session, taken before a flow's first
 * call and released when it ends. A holder that crashes keeps it until it expires (`ttlMs`).
 *
 * Fencing: Fragment cannot check a token of ours, so the holder checks instead. Before each call
 * that moves the page's flow state, `FlowLease.confirm()` verifies in one Redis script that the
 * lease is still this holder's and extends it by `ttlMs`. A holder whose lease expired (a
 * stalled process) gets a retryable UPSTREAM_UNAVAILABLE there and sends nothing; one whose check passed has a
 * whole `ttlMs` for its call, which is why `ttlMs` must exceed the Fragment call timeout (the
 * constructor refuses less than twice a call timeout it is told of).
 */
/**
 * Not under the queue's prefix: a Fragment session is one page state whatever deployment drives
 * it, so two deployments sharing a login and a Redis share its lease too.
 */
export const SESSION_LEASE_PREFIX = 'starsgate:fragment:lease:';

/** The lease's lifetime for a Fragment call timeout: a whole call fits twice, and never under 15 s. */
export function sessionLeaseTtlMs(callTimeoutMs: number): number {
  return Math.max(15_000, 3 * callTimeoutMs);
}

export interface SessionLeaseOptions {
  /** Key prefix, default `SESSION_LEASE_PREFIX`. */
  prefix?: string;
  /** How long a lease lives without a confirm; a crashed holder's session is free after it. */
  ttlMs: number;
  /** Longest wait for a busy session before the flow fails (retryable). Default: 4 × ttlMs. */
  waitMs?: number;
  /** Poll interval while waiting, default 25 ms (jittered). */
  pollMs?: number;
  /** The Fragment call timeout: `ttlMs` must be at least twice it. */
  callTimeoutMs?: number;
}

/** A held lease. */
export interface FlowLease {
  /** Increases by one at every acquisition of this session's lease, by any replica. */
  readonly fence: number;
  /** Throws when the lease is no longer this holder's; otherwise extends it by `ttlMs`. */
  confirm(): Promise<void>;
  /** Gives the session up (no-op when it already expired and another holder took it). */
  release(): Promise<void>;
}

const CONFIRM = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export class SessionLeases {
  private readonly waitMs: number;
  private readonly pollMs: number;

  constructor(
    private readonly redis: Redis,
    private readonly options: SessionLeaseOptions,
  ) {
    if (!(options.ttlMs > 0)) throw new TypeError('SessionLeases: ttlMs must be positive');
    if (options.callTimeoutMs !== undefined && options.ttlMs < 2 * options.callTimeoutMs)
      throw new TypeError('SessionLeases: ttlMs must be at least twice the Fragment call timeout');
    this.waitMs = options.waitMs ?? 4 * options.ttlMs;
    this.pollMs = options.pollMs ?? 25;
  }

  key(sessionId: string): string {
    return `${this.options.prefix ?? SESSION_LEASE_PREFIX}${sessionId}`;
  }

  /** Waits until the session is free, then holds it. */
  async acquire(sessionId: string): Promise<FlowLease> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      const held = await this.tryAcquire(sessionId);
      if (held) return held;
      if (Date.now() >= deadline)
        throw new FragmentError('UPSTREAM_UNAVAILABLE', 'Fragment session busy: another replica holds its flow lease', {
          method: 'session lease',
        });
      await new Promise((resolve) => setTimeout(resolve, this.pollMs / 2 + Math.random() * this.pollMs));
    }
  }

  /** Holds the session's lease if it is free now; undefined when another holder has it. */
  async tryAcquire(sessionId: string): Promise<FlowLease | undefined> {
    const key = this.key(sessionId);
    const token = randomBytes(16).toString('hex');
    const taken = await this.redis.set(key, token, 'PX', this.options.ttlMs, 'NX');
    if (taken !== 'OK') return undefined;
    const fence = await this.redis.incr(`${key}:fence`);
    return this.held(key, token, fence, sessionId);
  }

  private held(key: string, token: string, fence: number, sessionId: string): FlowLease {
    const ttl = String(this.options.ttlMs);
    return {
      fence,
      confirm: async () => {
        const kept = await this.redis.eval(CONFIRM, 1, key, token, ttl);
        if (kept !== 1)
          throw new FragmentError(
            'UPSTREAM_UNAVAILABLE',
            `Fragment session ${sessionId}: flow lease lost (expired); the flow stops before its next call`,
            { method: 'session lease' },
          );
      },
      release: async () => {
        await this.redis.eval(RELEASE, 1, key, token);
      },
    };
  }
}
