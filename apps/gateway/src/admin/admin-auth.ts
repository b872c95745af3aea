import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@starsgate/domain';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * `Authorization: Bearer <token>` against every configured token (several, so one can be rotated
 * without downtime). Compared as SHA-256 digests with timingSafeEqual, and always against all of
 * them, so neither a token's length nor its position shows in the timing. No header (or not a
 * Bearer one): 401; an unknown token: 403.
 */
export function adminAuth(tokens: readonly string[]) {
  const matches = adminTokenMatcher(tokens);
  return (req: Request, res: Response, next: NextFunction): void => {
    // The dashboard's session middleware, before this one, vouched for the request.
    if (res.locals.adminSession !== undefined) return next();
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return next(new AppError('ADMIN_TOKEN_REQUIRED'));
    next(matches(match[1]!) ? undefined : new AppError('ADMIN_TOKEN_INVALID'));
  };
}

/** Whether `token` is one of `tokens`, compared as above (digests, constant time, all of them). */
export function adminTokenMatcher(tokens: readonly string[]): (token: string) => boolean {
  const digests = tokens.map(digest);
  return (token) => {
    const given = digest(token);
    let valid = false;
    for (const known of digests) valid = timingSafeEqual(given, known) || valid;
    return valid;
  };
}
