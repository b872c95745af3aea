import type { NextFunction, Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { AppError } from '@starsgate/domain';
import { redisRateLimit } from '../http/rate-limit';
import { RedisWindowCounter } from '../http/redis-window-counter';

export interface CheckoutSubmissionLimits {
  /** `POST /checkouts/:id/submitted` per client and RATE_LIMIT_WINDOW_SECONDS (CHECKOUT_SUBMIT_RATE_LIMIT_MAX). */
  perClient: number;
  /** Submissions to one checkout per minute, from every client together (CHECKOUT_SUBMISSIONS_PER_MINUTE). */
  perCheckoutPerMinute: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MINUTE_MS = 60_000;

/**
 * The limits of `POST /checkouts/:id/submitted` (docs/security.md, attack 17): a submission may
 * cost chain reads on the operator's shared toncenter budget, so the route has its own per-client
 * limit beside the general one, and each checkout takes a few submissions a minute whatever
 * clients send them (an honest wallet or shop submits once, maybe twice). Counts are in Redis,
 * shared by every replica.
 */
export function checkoutSubmissionLimits(options: {
  redis: Redis;
  prefix: string;
  windowSeconds: number;
  limits: CheckoutSubmissionLimits;
}) {
  const perClient = redisRateLimit({
    redis: options.redis,
    windowSeconds: options.windowSeconds,
    max: options.limits.perClient,
    prefix: `${options.prefix}checkout-submissions:`,
  });
  const perCheckout = new RedisWindowCounter(options.redis, MINUTE_MS);

  return (req: Request, res: Response, next: NextFunction): void => {
    perClient(req, res, (error?: unknown) => {
      if (error !== undefined && error !== null) return next(error);
      const id = req.params.checkout_id;
      // An id that is no checkout's is answered 404 by the route; it has nothing to count against.
      if (typeof id !== 'string' || !UUID.test(id)) return next();
      perCheckout.hit(`${options.prefix}checkout-submissions-of:${id.toLowerCase()}`).then(({ hits, resetMs }) => {
        if (hits <= options.limits.perCheckoutPerMinute) return next();
        next(
          new AppError('CHECKOUT_SUBMISSIONS_LIMITED', {
            retryAfterSeconds: Math.max(1, Math.ceil(resetMs / 1000)),
            details: [
              {
                field: 'checkout_id',
                message: `this checkout took ${options.limits.perCheckoutPerMinute} submissions in the last minute`,
              },
            ],
          }),
        );
      }, next);
    });
  };
}
