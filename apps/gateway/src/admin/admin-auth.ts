import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@starsgate/domain';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Who acts: the admin token used (a hash prefix, never the token) and the operator name it carries. */
export interface AdminActor {
  tokenId: string;
  /** `Starsgate-Operator` header (the CLI sends --operator, $STARSGATE_OPERATOR or $USER), else `token:<tokenId>`. */
  operator: string;
}

const OPERATOR_HEADER = /^[\x20-\x7E]{1,100}$/;

/** The actor of an authenticated admin request (set by adminAuth). */
export function adminActor(res: Response): AdminActor {
  return res.locals.adminActor as AdminActor;
}

/**
 * `Authorization: Bearer <token>` against every configured token (several, so one can be rotated
 * without downtime). Compared as SHA-256 digests with timingSafeEqual, and always against all of
 * them, so neither a token's length nor its position shows in the timing. No header (or not a
 * Bearer one): 401; an unknown token: 403.
 */
export function adminAuth(tokens: readonly string[]) {
  const digests = tokens.map(digest);
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return next(new AppError('ADMIN_TOKEN_REQUIRED'));
    const given = digest(match[1]!);
    let valid = false;
    for (const known of digests) valid = timingSafeEqual(given, known) || valid;
    if (!valid) return next(new AppError('ADMIN_TOKEN_INVALID'));
    const tokenId = given.toString('hex').slice(0, 12);
    const named = req.get('Starsgate-Operator')?.trim();
    res.locals.adminActor = {
      tokenId,
      operator: named && OPERATOR_HEADER.test(named) ? named : `token:${tokenId}`,
    } satisfies AdminActor;
    next();
  };
}
