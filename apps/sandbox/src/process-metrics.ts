import type express from 'express';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * `GET /metrics` of the sandbox process: the Node.js process defaults only (memory, heap, event-loop
 * delay, GC), the same series the gateway and the worker export, so `npm run soak` reads all three
 * the same way. Mounted by the process entry, not by createSandbox: tests build many sandboxes in
 * one process and need no event-loop monitor each.
 */
export function mountProcessMetrics(app: express.Express): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  app.get('/metrics', async (_req, res) => {
    res.type(registry.contentType).send(await registry.metrics());
  });
}
