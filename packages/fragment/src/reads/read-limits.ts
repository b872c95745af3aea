/**
 * Budgets that protect the operator's Fragment login from the public read endpoints. They count
 * UPSTREAM calls (cache misses), not client requests, in Redis so every replica shares them:
 *
 * - a global budget of Fragment reads per window (availability lookups and price quotes);
 * - a per-scope budget (one username) so nobody can spend the global budget on one recipient;
 * - a cooldown set when Fragment itself answers 429 (or shows a Cloudflare challenge): no
 *   upstream read is attempted until it passes; cached answers are still served meanwhile.
 *
 * Fixed windows (INCR + PEXPIRE in one Lua script): simple, atomic, and at worst twice the
 * budget across a window boundary, which is fine for a protective limit.
 */
import type { Redis } from 'ioredis';
import { ReadError } from './read-errors';

export interface Budget {
  max: number;
  windowMs: number;
}

export interface ReadLimiterOptions {
  redis: Redis;
  prefix: string;
  global: Budget;
  perScope: Budget;
  /** Cooldown after an upstream 429 that named no Retry-After (default 5 000 ms). */
  defaultCooldownMs?: number;
  /** Longest cooldown honoured from a Retry-After (default 120 000 ms). */
  maxCooldownMs?: number;
}

// KEYS: cooldown, global[, scope]. ARGV: globalMax, globalWindowMs, scopeMax, scopeWindowMs, countBudget(1/0)
// Returns {0,0} when allowed, else {1|2|3, retryMs}: 1 cooldown, 2 global budget, 3 scope budget.
const ACQUIRE = `
local cd = redis.call('PTTL', KEYS[1])
if cd > 0 then return {1, cd} end
if ARGV[5] ~= '1' then return {0, 0} end
local function wait(key, window)
  local t = redis.call('PTTL', key)
  if t < 0 then t = tonumber(window) end
  return t
end
local g = tonumber(redis.call('GET', KEYS[2]) or '0')
if g >= tonumber(ARGV[1]) then return {2, wait(KEYS[2], ARGV[2])} end
if #KEYS >= 3 then
  local s = tonumber(redis.call('GET', KEYS[3]) or '0')
  if s >= tonumber(ARGV[3]) then return {3, wait(KEYS[3], ARGV[4])} end
  if redis.call('INCR', KEYS[3]) == 1 then redis.call('PEXPIRE', KEYS[3], ARGV[4]) end
end
if redis.call('INCR', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[2]) end
return {0, 0}
`;

export class ReadLimiter {
  private readonly defaultCooldownMs: number;
  private readonly maxCooldownMs: number;

  constructor(private readonly options: ReadLimiterOptions) {
    this.defaultCooldownMs = options.defaultCooldownMs ?? 5_000;
    this.maxCooldownMs = options.maxCooldownMs ?? 120_000;
  }

  private key(name: string): string {
    return `${this.options.prefix}limit:${name}`;
  }

  /**
   * Takes one upstream call from the budgets, or throws RATE_LIMITED with the wait. `scope` (a
   * lower-cased username) adds the per-scope budget; `budget: false` (the worker's list refresh)
   * only respects the cooldown.
   */
  async acquire(args: { scope?: string; budget?: boolean } = {}): Promise<void> {
    const keys = [this.key('cooldown'), this.key('global')];
    if (args.scope !== undefined) keys.push(this.key(`scope:${args.scope}`));
    const { global, perScope } = this.options;
    const [verdict, waitMs] = (await this.options.redis.eval(
      ACQUIRE,
      keys.length,
      ...keys,
      global.max,
      global.windowMs,
      perScope.max,
      perScope.windowMs,
      args.budget === false ? '0' : '1',
    )) as [number, number];
    if (verdict === 0) return;
    const retryAfterMs = Math.max(1, Number(waitMs));
    if (verdict === 1)
      throw new ReadError('RATE_LIMITED', 'upstream_cooldown', 'Fragment asked us to slow down; cooling down', {
        retryAfterMs,
      });
    if (verdict === 2)
      throw new ReadError('RATE_LIMITED', 'global_budget', 'the global budget of Fragment reads is spent', {
        retryAfterMs,
      });
    throw new ReadError(
      'RATE_LIMITED',
      'username_budget',
      'the budget of Fragment lookups for this username is spent',
      { retryAfterMs },
    );
  }

  /** Stops upstream reads for `ms` (Fragment's Retry-After, or the default), on every replica. */
  async cooldown(ms: number | undefined): Promise<number> {
    const duration = Math.min(this.maxCooldownMs, Math.max(1, ms ?? this.defaultCooldownMs));
    const key = this.key('cooldown');
    // Never shorten a longer cooldown already set by another replica.
    const current = await this.options.redis.pttl(key);
    if (current < duration) await this.options.redis.set(key, '1', 'PX', duration);
    return Math.max(current, duration);
  }

  /** Remaining cooldown in ms (0 when none). */
  async cooldownRemainingMs(): Promise<number> {
    const ttl = await this.options.redis.pttl(this.key('cooldown'));
    return ttl > 0 ? ttl : 0;
  }
}
