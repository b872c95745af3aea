import type { NextFunction, Request, Response } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Redis } from 'ioredis';
import { AppError } from '@starsgate/domain';
import { sendError } from './error-handler';
import { RedisWindowCounter } from './redis-window-counter';

export interface RateLimitOptions {
  redis: Redis;
  windowSeconds: number;
  max: number;
  /** Separates limiters (and test runs) that share one Redis. */
  prefix: string;
}

/**
 * Counts live in Redis, so every gateway replica enforces the same budget per client (its IP,
 * IPv6 grouped by /56). Answers with the IETF draft-7 `RateLimit` and `RateLimit-Policy` headers.
 */
export function redisRateLimit(options: RateLimitOptions) {
  const counter = new RedisWindowCounter(options.redis, options.windowSeconds * 1000);
  const policy = `${options.max};w=${options.windowSeconds}`;
  return (req: Request, res: Response, next: NextFunction): void => {
    counter.hit(`${options.prefix}${ipKeyGenerator(req.ip ?? '')}`).then(({ hits, resetMs }) => {
      const resetSeconds = Math.max(1, Math.ceil(resetMs / 1000));
      res.setHeader('RateLimit-Policy', policy);
      res.setHeader(
        'RateLimit',
        `limit=${options.max}, remaining=${Math.max(options.max - hits, 0)}, reset=${resetSeconds}`,
      );
      if (hits > options.max)
        return sendError(req, res, new AppError('RATE_LIMITED', { retryAfterSeconds: resetSeconds }));
      next();
    }, next);
  };
}
