import { Router } from 'express';
import { AppError, createValidator } from '@starsgate/domain';
import type { AdminAuthFailures } from '../admin/admin-auth-failures';
import { clearSessionCookie, setSessionCookie } from './admin-session-cookie';
import { currentSession } from './admin-session-auth';
import { AdminSessionStore } from './admin-session-store';
import { fromSameOrigin } from './same-origin';

interface LoginRequest {
  token: string;
  operator: string;
}

const validateLogin = createValidator<LoginRequest>({
  $id: 'AdminLoginRequest',
  type: 'object',
  additionalProperties: false,
  required: ['token', 'operator'],
  properties: {
    token: { type: 'string', minLength: 1, maxLength: 1024 },
    operator: { type: 'string', minLength: 1, maxLength: 100, pattern: '\\S' },
  },
});

export interface AdminSessionRouteDeps {
  store: AdminSessionStore;
  tokenDigests: ReadonlySet<string>;
  matchesToken: (token: string) => boolean;
  authFailures: AdminAuthFailures;
}

/**
 * Login, logout and the session the page reads. Login exchanges an admin token for a session
 * cookie (HttpOnly, SameSite=Strict, Secure except on loopback); the token itself is never stored
 * or sent back. The CSRF token is given to the page only through `GET /admin/session`, which a
 * cross-site page cannot read.
 */
export function adminSessionRoutes(deps: AdminSessionRouteDeps): Router {
  const router = Router();

  router.post('/admin/login', async (req, res) => {
    if (!fromSameOrigin(req)) throw new AppError('ADMIN_CSRF_REJECTED');
    const input = validateLogin(req.body);
    await deps.authFailures.refuseWhileLocked(req);
    if (!deps.matchesToken(input.token)) {
      await deps.authFailures.recordFailure(req);
      throw new AppError('ADMIN_TOKEN_INVALID');
    }
    const { id, session } = await deps.store.create(input.operator.trim(), input.token);
    setSessionCookie(req, res, id, deps.store.ttlMs);
    req.log.info('admin dashboard login', { operator: session.operator });
    res.setHeader('Cache-Control', 'no-store');
    res.json({ operator: session.operator, csrf_token: session.csrf });
  });

  router.get('/admin/session', async (req, res) => {
    const found = await currentSession(req, deps);
    res.setHeader('Cache-Control', 'no-store');
    if (!found) throw new AppError('ADMIN_TOKEN_REQUIRED');
    res.json({ operator: found.session.operator, csrf_token: found.session.csrf });
  });

  return router;
}

/** Logout: mounted behind the session check (same origin and CSRF token required). */
export function adminLogoutRoute(store: AdminSessionStore): Router {
  const router = Router();
  router.post('/admin/logout', async (req, res) => {
    const id = (res.locals.adminSessionId as string | undefined) ?? '';
    await store.destroy(id);
    clearSessionCookie(req, res);
    res.status(204).end();
  });
  return router;
}
