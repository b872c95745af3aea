import { Router } from 'express';
import type { Pool } from 'pg';
import type { Redis } from 'ioredis';
import { migrationsApplied } from '@starsgate/db';
import { SERVICE_VERSION } from '@starsgate/platform';

export interface HealthState {
  draining: boolean;
}

async function check(name: string, probe: () => Promise<boolean>): Promise<[string, 'ok' | 'fail']> {
  try {
    return [name, (await probe()) ? 'ok' : 'fail'];
  } catch {
    return [name, 'fail'];
  }
}

/**
 * How long one dependency check answers `/readyz`: the public port serves it to anyone, and each
 * check costs two PostgreSQL queries and a Redis ping (docs/security.md, attack 25). Probes come
 * every few seconds; a second's staleness changes nothing for them.
 */
const READINESS_CHECK_TTL_MS = 1_000;

type Checks = Record<string, 'ok' | 'fail'>;

/** One check in flight at a time, its result reused for READINESS_CHECK_TTL_MS after it started. */
function sharedChecks(run: () => Promise<Checks>): () => Promise<Checks> {
  let latest: { startedAt: number; checks: Promise<Checks> } | undefined;
  return () => {
    const now = Date.now();
    if (!latest || now - latest.startedAt >= READINESS_CHECK_TTL_MS) latest = { startedAt: now, checks: run() };
    return latest.checks;
  };
}

/**
 * `/livez`: the process and its event loop, with the release it runs. `/readyz`: every dependency a
 * request needs. Mounted on both listeners: the pods' probes use the operator one, which public
 * traffic cannot queue behind.
 */
export function healthRoutes(deps: { pool: Pool; redis: Redis; state: HealthState }): Router {
  const router = Router();
  const dependencyChecks = sharedChecks(async () =>
    Object.fromEntries(
      await Promise.all([
        check('postgres', async () => (await deps.pool.query('SELECT 1')).rowCount === 1),
        check('migrations', () => migrationsApplied(deps.pool)),
        check('redis', async () => (await deps.redis.ping()) === 'PONG'),
      ]),
    ),
  );

  router.get('/livez', (_req, res) => {
    res.json({ status: 'ok', version: SERVICE_VERSION });
  });

  router.get('/readyz', async (_req, res) => {
    const checks = await dependencyChecks();
    // Draining is read at every request: it must turn the probe at once.
    const ready = !deps.state.draining && Object.values(checks).every((value) => value === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ok' : deps.state.draining ? 'draining' : 'unavailable', checks });
  });

  return router;
}
