import { randomBytes } from 'node:crypto';
import { FingerprintKeys } from '@starsgate/db';
import { createLogger } from '@starsgate/platform';
import { buildGateway, createGatewayMetrics, loadGatewayConfig, type Gateway } from '@starsgate/gateway';
import type { WorkerHarness } from '@starsgate/worker/testing';

/** The real gateway app on a worker harness's database, Redis, queue, vault and chain, with the operator API on. */
export function operatorGateway(h: WorkerHarness, adminToken: string): Gateway {
  return buildGateway({
    config: loadGatewayConfig({ ...h.env, STARSGATE_ADMIN_TOKENS: adminToken }),
    logger: createLogger({ service: 'gateway', level: 'silent' }),
    database: h.database,
    redis: h.redis,
    queue: h.queue,
    sealer: h.vault,
    fingerprints: new FingerprintKeys(`f1:${randomBytes(32).toString('base64')}`),
    chain: h.chain,
    metrics: createGatewayMetrics(),
  });
}
