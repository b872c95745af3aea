import { createHash, timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@starsgate/domain';
import type { FingerprintKeys } from '@starsgate/db';
import type { AdminAuthFailures } from './admin-auth-failures';
import { adminTokenId } from './admin-token-id';

const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Who acts: the admin token used (its keyed id, never the token) and the operator name it carries. */
export interface AdminActor {
  tokenId: string;
  /**
   * A label only, never the actor: the `Starsgate-Operator` header (the CLI sends --operator,
   * $STARSGATE_OPERATOR or $USER) or the dashboard login's name, else `token:<tokenId>`.
   */
  operator: string;
}

/**
 * The authenticated identity audit records name as the actor: the token that authenticated the
 * request (directly, or the one the dashboard session was opened with). Anything the caller
 * writes (a body's `operator`, the header) is a label beside it (docs/security.md, attack 13).
 */
export function actorIdentity(actor: Pick<AdminActor, 'tokenId'>): string {
  return `token:${actor.tokenId}`;
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
 * Bearer one): 401; an unknown token: 403, counted by AdminAuthFailures, which answers 429 once
 * too many failed.
 */
export function adminAuth(tokens: readonly string[], failures: AdminAuthFailures, tokenIdKeys: FingerprintKeys) {
  const matches = adminTokenMatcher(tokens);
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    // The dashboard's session middleware, before this one, vouched for the request and its actor.
    if (res.locals.adminSession !== undefined) return next();
    const header = req.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) return next(new AppError('ADMIN_TOKEN_REQUIRED'));
    await failures.refuseWhileLocked(req);
    if (!matches(match[1]!)) {
      await failures.recordFailure(req);
      return next(new AppError('ADMIN_TOKEN_INVALID'));
    }
    const tokenId = adminTokenId(match[1]!, tokenIdKeys);
    const named = req.get('Starsgate-Operator')?.trim();
    res.locals.adminActor = {
      tokenId,
      operator: named && OPERATOR_HEADER.test(named) ? named : `token:${tokenId}`,
    } satisfies AdminActor;
    next();
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
