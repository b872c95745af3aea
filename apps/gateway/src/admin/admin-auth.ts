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
  const digests = tokens.map(digest);
  return (req: Request, _res: Response, next: NextFunction): void => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return next(new AppError('ADMIN_TOKEN_REQUIRED'));
    const given = digest(match[1]!);
    let valid = false;
    for (const known of digests) valid = timingSafeEqual(given, known) || valid;
    next(valid ? undefined : new AppError('ADMIN_TOKEN_INVALID'));
  };
}
