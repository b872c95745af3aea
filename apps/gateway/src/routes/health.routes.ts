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
 * `/livez`: the process and its event loop, with the release it runs. `/readyz`: every dependency a
 * request needs. Mounted on both listeners: the pods' probes use the operator one, which public
 * traffic cannot queue behind.
 */
export function healthRoutes(deps: { pool: Pool; redis: Redis; state: HealthState }): Router {
  const router = Router();

  router.get('/livez', (_req, res) => {
    res.json({ status: 'ok', version: SERVICE_VERSION });
  });

  router.get('/readyz', async (_req, res) => {
    const checks = Object.fromEntries(
      await Promise.all([
        check('postgres', async () => (await deps.pool.query('SELECT 1')).rowCount === 1),
        check('migrations', () => migrationsApplied(deps.pool)),
        check('redis', async () => (await deps.redis.ping()) === 'PONG'),
      ]),
    );
    const ready = !deps.state.draining && Object.values(checks).every((value) => value === 'ok');
    res
      .status(ready ? 200 : 503)
      .json({ status: ready ? 'ok' : deps.state.draining ? 'draining' : 'unavailable', checks });
  });

  return router;
}
