import express from 'express';
import type { LocalChain } from '../chain/local-chain';
import { createV2Router } from './v2-router';
import { createV3Router } from './v3-router';

/**
 * toncenter-compatible API over the local chain: `/api/v2/...` and `/api/v3/...` below the mount
 * point. Every request first waits the configured latency, then passes the chain's HTTP fault
 * switches (429 / 5xx).
 */
export function createToncenterRouter(chain: LocalChain): express.Router {
  const router = express.Router();
  router.use((_req, _res, next) => {
    const latency = chain.faults.latencyMs();
    if (latency > 0) setTimeout(next, latency);
    else next();
  });
  router.use((_req, res, next) => {
    const fault = chain.faults.takeHttpFault();
    if (!fault) return next();
    res.status(fault.status).set(fault.headers).json(fault.body);
  });
  router.use('/api/v2', createV2Router(chain));
  router.use('/api/v3', createV3Router(chain));
  return router;
}
