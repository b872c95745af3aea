import { rateLimit } from 'express-rate-limit';
import { RedisStore, type RedisReply } from 'rate-limit-redis';
import type { Redis } from 'ioredis';
import { AppError } from '@starsgate/domain';
import { sendError } from './error-handler';

export interface RateLimitOptions {
  redis: Redis;
  windowSeconds: number;
  max: number;
  /** Separates limiters (and test runs) that share one Redis. */
  prefix: string;
}

/** Counts live in Redis, so every gateway replica enforces the same budget per client. */
export function redisRateLimit(options: RateLimitOptions) {
  return rateLimit({
    windowMs: options.windowSeconds * 1000,
    limit: options.max,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: new RedisStore({
      prefix: options.prefix,
      sendCommand: (command: string, ...args: string[]) => options.redis.call(command, ...args) as Promise<RedisReply>,
    }),
    handler: (req, res) => {
      const resetTime = (req as { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
      const retryAfter = Math.max(1, Math.ceil(((resetTime?.getTime() ?? Date.now() + options.windowSeconds * 1000) - Date.now()) / 1000));
      sendError(req, res, new AppError('RATE_LIMITED', { retryAfterSeconds: retryAfter }));
    },
  });
}
