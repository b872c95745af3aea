import { Router } from 'express';
import type { Redis } from 'ioredis';
import { LoginStates } from '@starsgate/fragment';

/**
 * `/admin/api/fragment-sessions`: each Fragment login the workers use, as they record it in Redis
 * (docs/fragment-protocol.md §20.3): its account, the wallet its page shows linked, alive or dead
 * since when (and why), its last order. Ids are hashes of the cookies, never the cookies.
 */
export function adminFragmentSessionsRoutes(deps: { redis: Redis }): Router {
  const router = Router();
  const states = new LoginStates(deps.redis);
  router.get('/admin/api/fragment-sessions', async (_req, res) => {
    const logins = await states.all();
    res.json({
      data: logins.map((login) => ({
        session_id: login.sessionId,
        account_id: login.accountId,
        state: login.alive ? 'alive' : 'dead',
        since: login.since,
        reason: login.reason ?? null,
        wallet_address: login.wallet ?? null,
        last_order_at: login.lastOrderAt ?? null,
        checked_at: login.checkedAt ?? null,
      })),
    });
  });
  return router;
}
