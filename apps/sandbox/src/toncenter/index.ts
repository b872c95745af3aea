import express from 'express';
import { rateLimitedAnswer } from '../chain/chain-faults';
import type { LocalChain } from '../chain/local-chain';
import { createV2Router } from './v2-router';
import { createV3Router } from './v3-router';

/**
 * toncenter-compatible API over the local chain: `/api/v2/...` and `/api/v3/...` below the mount
 * point. Every request is counted and passes the configured request limit (per API key, as
 * toncenter's), then waits the configured latency, then passes the chain's HTTP fault switches
 * (429 / 5xx).
 */
export function createToncenterRouter(chain: LocalChain): express.Router {
  const router = express.Router();
  router.use((req, res, next) => {
    const decision = chain.faults.rateLimiter.take(apiKeyOf(req));
    if (decision.allowed) return next();
    const answer = rateLimitedAnswer(decision.retryAfterSec);
    res.status(answer.status).set(answer.headers).json(answer.body);
  });
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

/** toncenter takes the key as the `X-API-Key` header or the `api_key` query parameter. */
function apiKeyOf(req: express.Request): string | undefined {
  const header = req.get('x-api-key');
  if (header) return header;
  const query = req.query['api_key'];
  return typeof query === 'string' && query.length > 0 ? query : undefined;
}
