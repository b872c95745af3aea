import { Router } from 'express';
import type { Registry } from 'prom-client';

/** `/metrics`: the Prometheus scrape, on the operator listener only (docs/security.md, attack 15). */
export function metricsRoutes(registry: Registry): Router {
  const router = Router();
  router.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
  return router;
}
