import { createLogger } from '@starsgate/platform';
import { buildGateway, type Gateway } from '../../apps/gateway/src/app';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { createGatewayMetrics } from '../../apps/gateway/src/observability/metrics';
import type { WorkerHarness } from '../../apps/worker/test/support/worker-harness';

/** The real gateway app on a worker harness's database, Redis, queue, vault and chain, with the operator API on. */
export function operatorGateway(h: WorkerHarness, adminToken: string): Gateway {
  return buildGateway({
    config: loadGatewayConfig({ ...h.env, STARSGATE_ADMIN_TOKENS: adminToken }),
    logger: createLogger({ service: 'gateway', level: 'silent' }),
    database: h.database,
    redis: h.redis,
    queue: h.queue,
    vault: h.vault,
    chain: h.chain,
    metrics: createGatewayMetrics(),
  });
}
