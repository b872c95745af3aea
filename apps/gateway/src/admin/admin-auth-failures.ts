import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { AppError } from '@starsgate/domain';
import { RedisWindowCounter } from '../http/redis-window-counter';

export interface AdminAuthFailureLimits {
  windowSeconds: number;
  /** Failed authentications one client (its IP, IPv6 by /56) may make per window. */
  perClient: number;
  /**
   * Failed authentications all clients together may make per window; past it, a client that has
   * failed once in the window is locked as if it had reached `perClient`.
   */
  global: number;
}

/**
 * Counts failed admin authentications (a wrong bearer token, a wrong dashboard login) in Redis,
 * per client and in total, shared by every replica. A client at its limit gets 429 for every token
 * check until its window ends, a right token included: answering a right guess differently would
 * let the guessing go on (docs/security.md, attack 3). Past the global limit guessing slows to one
 * try per client (a client that failed once in the window is locked), but a client that has not
 * failed still gets its right token checked: the global count alone locks no operator out
 * (docs/security.md, attack 21).
 */
export class AdminAuthFailures {
  private readonly counter: RedisWindowCounter;
  private readonly globalKey: string;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly limits: AdminAuthFailureLimits,
  ) {
    this.counter = new RedisWindowCounter(redis, limits.windowSeconds * 1000);
    this.globalKey = `${prefix}all`;
  }

  /** Throws ADMIN_AUTH_RATE_LIMITED while this client's or everyone's failures are at their limit. */
  async refuseWhileLocked(req: Request): Promise<void> {
    const replies = await this.redis
      .multi()
      .get(this.clientKey(req))
      .pttl(this.clientKey(req))
      .get(this.globalKey)
      .pttl(this.globalKey)
      .exec();
    const value = (index: number): number => Number(replies?.[index]?.[1] ?? 0);
    const [clientFailures, clientTtl, globalFailures, globalTtl] = [value(0), value(1), value(2), value(3)];
    const lockedFor =
      clientFailures >= this.limits.perClient
        ? clientTtl
        : clientFailures > 0 && globalFailures >= this.limits.global
          ? Math.min(clientTtl, globalTtl)
          : 0;
    if (lockedFor > 0)
      throw new AppError('ADMIN_AUTH_RATE_LIMITED', { retryAfterSeconds: Math.max(1, Math.ceil(lockedFor / 1000)) });
  }

  async recordFailure(req: Request): Promise<void> {
    await Promise.all([this.counter.hit(this.clientKey(req)), this.counter.hit(this.globalKey)]);
  }

  private clientKey(req: Request): string {
    return `${this.prefix}client:${ipKeyGenerator(req.ip ?? '')}`;
  }
}
