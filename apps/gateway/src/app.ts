import express, { type Express } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DatabaseHandle, SecretVault } from '@starsgate/db';
import { PurchaseRepository } from '@starsgate/db';
import type { Logger, PurchaseJobData } from '@starsgate/platform';
import type { GatewayConfig } from './config';
import { accessLog } from './http/access-log';
import { errorHandler, notFound } from './http/error-handler';
import { jsonBody } from './http/json-body';
import { redisRateLimit } from './http/rate-limit';
import { requestContext } from './http/request-context';
import type { GatewayMetrics } from './observability/metrics';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { docsRoutes } from './routes/docs.routes';
import { healthRoutes, type HealthState } from './routes/health.routes';
import { purchasesRoutes } from './routes/purchases.routes';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  database: DatabaseHandle;
  redis: Redis;
  queue: Queue<PurchaseJobData>;
  vault: SecretVault;
  metrics: GatewayMetrics;
  /** Prefix for the gateway's own Redis keys (rate limits). */
  redisKeyPrefix?: string;
}

export interface Gateway {
  app: Express;
  state: HealthState;
}

/** Builds the app without listening, so tests drive it in-process with supertest. */
export function buildGateway(deps: GatewayDeps): Gateway {
  const state: HealthState = { draining: false };
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');

  const purchases = new PurchaseRepository(deps.database.db);
  const document = buildOpenApiDocument();

  app.use(requestContext(deps.logger));
  app.use(accessLog(deps.metrics));
  app.use(healthRoutes({ pool: deps.database.pool, redis: deps.redis, state, registry: deps.metrics.registry }));
  app.use(docsRoutes(document));

  app.use(
    '/api/v1',
    redisRateLimit({
      redis: deps.redis,
      windowSeconds: deps.config.rateLimit.windowSeconds,
      max: deps.config.rateLimit.max,
      prefix: `${deps.redisKeyPrefix ?? 'starsgate'}:rate-limit:`,
    }),
    jsonBody(deps.config.bodyLimitBytes),
  );
  // Routers declare full paths so that `req.route.path` is the template metrics are labelled with.
  app.use(
    purchasesRoutes({
      purchases,
      vault: deps.vault,
      queue: deps.queue,
      metrics: deps.metrics,
      network: deps.config.network,
      idempotencyLockTimeoutMs: deps.config.idempotencyLockTimeoutMs,
    }),
  );

  app.use(notFound());
  app.use(errorHandler());
  return { app, state };
}
