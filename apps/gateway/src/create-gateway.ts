/**
 * The gateway's composition root: the one place its parts are assembled from its configuration.
 * `main.ts`, the tests, the benches and the harnesses of other workspaces all build it here; a
 * caller that already holds a part (a test database, a capturing logger, a worker harness's queue)
 * passes it in, and `close()` then leaves that part to its owner.
 */
import { loadFingerprintKeys, loadSealer, connectDatabase } from '@starsgate/db';
import {
  closeQueue,
  createLogger,
  createPurchaseQueue,
  createRedisConnection,
  createToncenterPacer,
  createWebhookQueue,
} from '@starsgate/platform';
import { ToncenterChainClient } from '@starsgate/ton';
import { buildGateway, type Gateway, type GatewayDeps } from './app';
import type { GatewayConfig } from './config';
import { createGatewayMetrics } from './observability/metrics';

/** The parts a caller may bring instead of the ones built from the configuration. */
export type GatewayParts = Partial<Omit<GatewayDeps, 'config'>>;

export interface CreatedGateway extends Gateway {
  /** Every part the gateway runs on, whether built here or passed in. */
  deps: GatewayDeps;
  /** Closes the connections built here (queues, Redis, PostgreSQL), never failing; the ones passed in stay open. */
  close(): Promise<void>;
}

export function createGateway(config: GatewayConfig, parts: GatewayParts = {}): CreatedGateway {
  const owned: Array<() => Promise<unknown>> = [];
  const logger = parts.logger ?? createLogger({ service: 'gateway', level: config.logLevel });
  const database =
    parts.database ??
    own(
      connectDatabase(config.databaseUrl, {
        applicationName: 'starsgate-gateway',
        max: config.databasePoolSize,
        lockTimeoutMs: config.idempotencyLockTimeoutMs,
        transactionPooler: config.databasePooler === 'transaction',
        onError: (error) => logger.warn('idle PostgreSQL connection lost', { error }),
      }),
      (handle) => handle.close(),
    );
  const redis =
    parts.redis ??
    own(createRedisConnection(config.redisUrl), (connection) =>
      // A Redis that cannot be reached refuses QUIT too (redis-outage.test.ts): then drop the connection.
      connection.quit().catch(() => connection.disconnect()),
    );
  const queue =
    parts.queue ??
    own(
      createPurchaseQueue(config.redisUrl, config.bullPrefix, (error) =>
        logger.warn('queue connection error', { error }),
      ),
      closeQueue,
    );
  const webhookQueue =
    parts.webhookQueue ??
    own(
      createWebhookQueue(config.redisUrl, config.bullPrefix, (error) =>
        logger.warn('webhook queue connection error', { error }),
      ),
      closeQueue,
    );
  const sealer =
    parts.sealer ??
    loadSealer({
      sealKey: config.sealKey,
      secretKey: config.secretKey,
      dataDir: config.dataDir,
      production: config.production,
      warn: (message) => logger.warn(message),
    });
  const fingerprints =
    parts.fingerprints ??
    loadFingerprintKeys({
      value: config.fingerprintKey,
      dataDir: config.dataDir,
      allowGenerated: !config.production,
      warn: (message) => logger.warn(message),
    });
  const metrics = parts.metrics ?? createGatewayMetrics();
  const chain = parts.chain ?? toncenterClient(config, redis, metrics);

  const deps: GatewayDeps = {
    config,
    logger,
    database,
    redis,
    queue,
    webhookQueue,
    sealer,
    fingerprints,
    metrics,
    chain,
    ...(parts.reads ? { reads: parts.reads } : {}),
    ...(parts.redisKeyPrefix ? { redisKeyPrefix: parts.redisKeyPrefix } : {}),
  };
  return {
    ...buildGateway(deps),
    deps,
    close: async () => {
      // Last built, first closed: the queues before the Redis and PostgreSQL connections under them.
      for (const close of [...owned].reverse()) await close().catch(() => undefined);
    },
  };

  function own<T>(part: T, close: (part: T) => Promise<unknown>): T {
    owned.push(() => close(part));
    return part;
  }
}

/** The chain provider, paced to toncenter's request limit shared with every replica through Redis (docs/ton.md §9). */
function toncenterClient(
  config: GatewayConfig,
  redis: GatewayDeps['redis'],
  metrics: GatewayDeps['metrics'],
): ToncenterChainClient {
  const pacer = createToncenterPacer(config.toncenter, redis, metrics.chainRate);
  return new ToncenterChainClient({
    baseUrl: config.toncenter.url,
    apiKey: config.toncenter.apiKey,
    ...(pacer ? { pacer } : {}),
  });
}
