import express, { type ErrorRequestHandler } from 'express';
import { ChainFaultError } from '../chain/chain-faults';
import type { LocalChain } from '../chain/local-chain';

/**
 * Sandbox-only chain fault switches: `GET /admin/faults` shows them (and how often each fired),
 * `PUT /admin/faults` replaces them (`{}` clears all). See chain-faults.ts for the JSON shape.
 */
export function createFaultsRouter(chain: LocalChain): express.Router {
  const router = express.Router();
  router.use(express.json({ limit: '16kb' }));
  const view = () => ({
    faults: chain.faults.get(),
    fired: { ...chain.faults.fired },
    toncenter: structuredClone(chain.faults.rateLimiter.counts),
    chain: { ...chain.stats, pending: chain.pendingCount, rejectedAtInclusion: chain.rejectedAtInclusion.slice(-20) },
  });
  router.get('/faults', (_req, res) => {
    res.json(view());
  });
  router.put('/faults', (req, res) => {
    chain.faults.set(req.body ?? {});
    res.json(view());
  });
  const onError: ErrorRequestHandler = (err, _req, res, _next) => {
    const status =
      err instanceof ChainFaultError || (err as { type?: string }).type === 'entity.parse.failed' ? 400 : 500;
    res.status(status).json({ ok: false, error: (err as Error).message });
  };
  router.use(onError);
  return router;
}
