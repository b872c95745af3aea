import type { NextFunction, Request, Response } from 'express';

/**
 * CORS for the API, only for the listed origins (CORS_ALLOWED_ORIGINS): a shop page calls the
 * checkout routes from the buyer's browser. Other origins get no CORS headers, so browsers refuse
 * them; preflights of allowed origins are answered here, before the rate limit and the body parser.
 */
export function cors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (origin === undefined || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', 'Location, Idempotent-Replayed, Retry-After, Request-Id');
    if (req.method !== 'OPTIONS') return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
    res.setHeader('Access-Control-Allow-Headers', 'Content-Type, Accept, Request-Id');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
