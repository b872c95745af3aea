import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { AppError } from '@starsgate/domain';
import type { FingerprintKeys } from '@starsgate/db';
import type { AdminActor } from '../admin/admin-auth';
import { adminTokenIdOfDigest } from '../admin/admin-token-id';
import { AdminSessionStore, type AdminSession } from './admin-session-store';
import { readSessionCookie } from './admin-session-cookie';
import { fromSameOrigin, isUnsafeMethod } from './same-origin';

export const CSRF_HEADER = 'x-csrf-token';

const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export interface SessionAuthOptions {
  store: AdminSessionStore;
  /** Digests of the admin tokens configured now: a session of a rotated-out token is over. */
  tokenDigests: ReadonlySet<string>;
  /** The key of admin token ids (admin/admin-token-id.ts). */
  tokenIdKeys: FingerprintKeys;
  /** Unsafe requests must also carry the session's CSRF token (the page's own API calls). */
  requireCsrfHeader: boolean;
}

/** The live session of the request's cookie, or undefined (no cookie, expired, token rotated out). */
export async function currentSession(
  req: Request,
  options: Pick<SessionAuthOptions, 'store' | 'tokenDigests'>,
): Promise<{ id: string; session: AdminSession } | undefined> {
  const id = readSessionCookie(req);
  if (!id) return undefined;
  const session = await options.store.touch(id);
  if (!session || !options.tokenDigests.has(session.tokenDigest)) return undefined;
  return { id, session };
}

/**
 * Lets a dashboard session stand in for the bearer token. A request without the session cookie
 * passes through untouched (the bearer check that follows decides). State-changing requests must
 * come from this origin and, for the admin API, carry the session's CSRF token.
 * `required`: no session is a 401 (pages and Bull Board, which have no bearer alternative).
 */
export function sessionAuth(
  options: SessionAuthOptions & {
    required: boolean;
    /** Answers a request without a session instead of the 401 (a page sends people to the login). */
    onMissing?: (req: Request, res: Response) => void;
  },
) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const found = req.headers.authorization ? undefined : await currentSession(req, options);
    if (!found && options.required && options.onMissing) return options.onMissing(req, res);
    if (!found) return next(options.required ? new AppError('ADMIN_TOKEN_REQUIRED') : undefined);
    if (isUnsafeMethod(req)) {
      const header = req.get(CSRF_HEADER);
      const csrfOk = !options.requireCsrfHeader || (header !== undefined && sameSecret(header, found.session.csrf));
      if (!fromSameOrigin(req) || !csrfOk) return next(new AppError('ADMIN_CSRF_REJECTED'));
    }
    res.locals.adminSession = found.session;
    res.locals.adminSessionId = found.id;
    // The audit's actor: the session's token (the same keyed id a bearer request gets) and operator.
    res.locals.adminActor = {
      tokenId: adminTokenIdOfDigest(found.session.tokenDigest, options.tokenIdKeys),
      operator: found.session.operator,
    } satisfies AdminActor;
    next();
  };
}
