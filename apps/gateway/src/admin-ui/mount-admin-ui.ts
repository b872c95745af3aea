import type { Express } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { AppError } from '@starsgate/domain';
import { AdminAudit, type DatabaseHandle, type FingerprintKeys } from '@starsgate/db';
import type { GatewayConfig } from '../config';
import { sendError } from '../http/error-handler';
import { adminTokenMatcher } from '../admin/admin-auth';
import type { AdminAuthFailures } from '../admin/admin-auth-failures';
import { jsonBody } from '../http/json-body';
import { redisRateLimit } from '../http/rate-limit';
import { sessionAuth } from './admin-session-auth';
import { adminLogoutRoute, adminSessionRoutes } from './admin-session.routes';
import { AdminSessionStore } from './admin-session-store';
import { adminUiRoutes } from './admin-ui.routes';
import { BULL_BOARD_PATH, bullBoardHandlers } from './bull-board';

const SESSION_TTL_MS = 8 * 3_600_000;
const LOGIN_ATTEMPTS_PER_MINUTE = 20;

export interface AdminUiDeps {
  config: GatewayConfig;
  /** Where a writable Bull Board records its changes (admin_actions). */
  database: DatabaseHandle;
  redis: Redis;
  /** Prefix of the gateway's own Redis keys. */
  redisKeyPrefix: string;
  /** Every BullMQ queue the service uses (Bull Board). */
  queues: readonly Queue[];
  /** Failed token checks, shared with the admin API. */
  authFailures: AdminAuthFailures;
  /** The key of admin token ids in audit records (admin/admin-token-id.ts). */
  fingerprints: FingerprintKeys;
}

/**
 * The operator dashboard at `/admin`, its session (login, logout), and Bull Board at
 * `/admin/queues`. Mounted before the admin API, whose routes then also accept the dashboard's
 * session (with its CSRF token) in place of a bearer token. Absent, like the API, when no admin
 * token is configured.
 */
export function mountAdminUi(app: Express, deps: AdminUiDeps): void {
  const tokens = deps.config.adminTokens;
  if (tokens.length === 0) return;
  const store = new AdminSessionStore(deps.redis, `${deps.redisKeyPrefix}:admin-session:`, SESSION_TTL_MS);
  const tokenDigests = new Set(tokens.map((token) => AdminSessionStore.tokenDigest(token)));
  const session = { store, tokenDigests, tokenIdKeys: deps.fingerprints };

  app.use(
    '/admin/login',
    redisRateLimit({
      redis: deps.redis,
      windowSeconds: 60,
      max: LOGIN_ATTEMPTS_PER_MINUTE,
      prefix: `${deps.redisKeyPrefix}:admin-login:`,
    }),
    jsonBody(deps.config.bodyLimitBytes),
  );
  app.use(adminSessionRoutes({ ...session, matchesToken: adminTokenMatcher(tokens), authFailures: deps.authFailures }));
  app.use('/admin/api', sessionAuth({ ...session, requireCsrfHeader: true, required: false }));
  app.use('/admin/logout', sessionAuth({ ...session, requireCsrfHeader: true, required: true }));
  app.use(adminLogoutRoute(store));
  app.use(
    BULL_BOARD_PATH,
    sessionAuth({
      ...session,
      // Bull Board's own requests carry no CSRF header: same-origin and SameSite=Strict guard them.
      requireCsrfHeader: false,
      required: true,
      onMissing: (req, res) => {
        if (req.method === 'GET' && (req.get('accept') ?? '').includes('text/html'))
          res.redirect(303, '/admin#/queues');
        else sendError(req, res, new AppError('ADMIN_TOKEN_REQUIRED'));
      },
    }),
    ...bullBoardHandlers(deps.queues, {
      writable: deps.config.bullBoardWritable,
      audit: new AdminAudit(deps.database.db),
    }),
  );
  app.use(adminUiRoutes());
}
