import type { Redis } from 'ioredis';

/**
 * Takes one unit from a shared window budget only while its count is under the caller's ceiling,
 * so a refused request costs the budget nothing. KEYS: counter. ARGV: ceiling, windowMs.
 * Returns {1, ttl} when taken, {0, ttl} when refused.
 */
const TAKE_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if count >= tonumber(ARGV[1]) then
  if ttl < 0 then ttl = tonumber(ARGV[2]) end
  return {0, ttl}
end
if redis.call('INCR', KEYS[1]) == 1 or ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {1, ttl}`;

type BudgetRedis = Redis & { starsgateTakeBudget(key: string, ceiling: number, windowMs: number): Promise<number[]> };

export interface ReservedBudgetOptions {
  redis: Redis;
  key: string;
  /** Units per window for everyone together, every replica included. */
  max: number;
  /** Units of `max` that only `reserved` callers may take. */
  reserved: number;
  windowMs: number;
}

/**
 * One budget shared by every replica with a reserve: ordinary callers stop at `max - reserved`,
 * reserved callers (a purchase) may use it all, so a flood of ordinary ones cannot spend their share.
 */
export class ReservedBudget {
  private readonly redis: BudgetRedis;

  constructor(private readonly options: ReservedBudgetOptions) {
    if (!('starsgateTakeBudget' in options.redis))
      options.redis.defineCommand('starsgateTakeBudget', { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = options.redis as BudgetRedis;
  }

  /** Takes a unit; answers the seconds to wait instead when the caller's share is spent. */
  async take(reserved: boolean): Promise<{ taken: true } | { taken: false; retryAfterSeconds: number }> {
    const { max, windowMs } = this.options;
    const ceiling = reserved ? max : Math.max(0, max - this.options.reserved);
    const [taken, ttl] = await this.redis.starsgateTakeBudget(this.options.key, ceiling, windowMs);
    if (taken === 1) return { taken: true };
    return { taken: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)) };
  }
}
