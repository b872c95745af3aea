import express, { type Express, type RequestHandler } from 'express';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { DatabaseHandle, FingerprintKeys, SecretSealing } from '@starsgate/db';
import { CheckoutRepository, OpenOrders, PurchaseRepository } from '@starsgate/db';
import { instrumentUpstream, type Logger, type PurchaseJobData } from '@starsgate/platform';
import { createFragmentReads, type FragmentReads } from '@starsgate/fragment';
import { parseWalletAddress, type ChainClient } from '@starsgate/ton';
import { AdminAuthFailures } from './admin/admin-auth-failures';
import { mountAdminApi } from './admin/admin-routes';
import { mountAdminUi } from './admin-ui/mount-admin-ui';
import type { GatewayConfig } from './config';
import { accessLog } from './http/access-log';
import { cors } from './http/cors';
import { errorHandler, notFound } from './http/error-handler';
import { jsonBody } from './http/json-body';
import { middlewareChain } from './http/middleware-chain';
import { underPath } from './http/under-path';
import { expensiveRouteLimits } from './http/expensive-route-limits';
import { redisRateLimit } from './http/rate-limit';
import type { TrustProxy } from './http/trust-proxy';
import { requestContext } from './http/request-context';
import type { GatewayMetrics } from './observability/metrics';
import { checkoutsOpenApi } from './openapi/checkouts.openapi';
import { buildOpenApiDocument } from './openapi/openapi-document';
import { walletsOpenApi } from './openapi/wallets.openapi';
import { docsRoutes } from './routes/docs.routes';
import { healthRoutes, type HealthState } from './routes/health.routes';
import { metricsRoutes } from './routes/metrics.routes';
import { purchasesRoutes } from './routes/purchases.routes';
import { OpenOrderTally } from './intake/open-order-tally';
import { PurchaseIntakeBatcher } from './purchases/purchase-intake-batcher';
import { PurchaseJobEnqueuer } from './purchases/purchase-job-enqueuer';
import { PurchaseViewReader } from './purchases/purchase-view-reader';
import { readsOpenApi } from './openapi/reads.openapi';
import { availabilityRoutes } from './routes/availability.routes';
import { checkoutsRoutes } from './routes/checkouts.routes';
import { TonProofPayloads } from './checkouts/ton-proof-payloads';
import { checkoutSubmissionLimits } from './checkouts/checkout-submission-limits';
import { PerPayerQueue } from './checkouts/per-payer-queue';
import { pricesRoutes } from './routes/prices.routes';
import { walletsRoutes } from './routes/wallets.routes';

export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  database: DatabaseHandle;
  redis: Redis;
  queue: Queue<PurchaseJobData>;
  /** The webhook delivery queue (its counts show in the admin stats). */
  webhookQueue?: Queue;
  /** Seals wallet and webhook secrets to the worker's public key; cannot open them (docs/security.md). */
  sealer: SecretSealing;
  fingerprints: FingerprintKeys;
  metrics: GatewayMetrics;
  chain: ChainClient;
  /** Availability checker and price book; built from `config.reads` when absent. */
  reads?: FragmentReads;
  /** Prefix for the gateway's own Redis keys (rate limits). */
  redisKeyPrefix?: string;
}

export interface Gateway {
  /** The public listener (`PORT`): `/api/v1`, the probes, `/openapi.json` and `/docs`. */
  app: Express;
  /** The operator listener (`ADMIN_PORT`): `/metrics`, the dashboard, Bull Board and `/admin/api` (docs/security.md, attack 15). */
  adminApp: Express;
  state: HealthState;
  reads: FragmentReads;
}

/** Builds both apps without listening, so tests drive them in-process with supertest. */
export function buildGateway(deps: GatewayDeps): Gateway {
  const state: HealthState = { draining: false };
  const app = newApp(deps, state, deps.config.trustProxy, [
    underPath(
      '/api/v1',
      middlewareChain(
        cors(deps.config.corsAllowedOrigins),
        redisRateLimit({
          redis: deps.redis,
          windowSeconds: deps.config.rateLimit.windowSeconds,
          max: deps.config.rateLimit.max,
          prefix: `${deps.redisKeyPrefix ?? 'starsgate'}:rate-limit:`,
        }),
        jsonBody(deps.config.bodyLimitBytes),
        expensiveRouteLimits({
          redis: deps.redis,
          prefix: `${deps.redisKeyPrefix ?? 'starsgate'}:expensive-routes:`,
          network: deps.config.network,
          windowSeconds: deps.config.rateLimit.windowSeconds,
          limits: deps.config.expensiveRoutes,
        }),
      ),
    ),
  ]);
  // Its own proxy setting: nothing sits in front of it unless configured (docs/security.md, attack 21).
  const adminApp = newApp(deps, state, deps.config.adminTrustProxy, []);

  const purchases = new PurchaseRepository(deps.database.db);
  const jobs = new PurchaseJobEnqueuer(deps.queue);
  const chain = instrumentUpstream(deps.chain, 'chain', deps.metrics.upstream);
  const reads = deps.reads ?? createReads(deps);
  // The public document names no operator route: those are in the operator listener's own (attack 22).
  const document = buildOpenApiDocument([walletsOpenApi, readsOpenApi, checkoutsOpenApi]);

  const openOrders = { openOrders: new OpenOrderTally(new OpenOrders(deps.database.db)), caps: deps.config.openOrders };
  // Routers declare full paths so that `req.route.path` is the template metrics are labelled with.
  purchasesRoutes(
    {
      intake: new PurchaseIntakeBatcher(purchases),
      purchases,
      openOrders,
      jobs,
      views: new PurchaseViewReader(purchases),
      sealer: deps.sealer,
      fingerprints: deps.fingerprints,
      metrics: deps.metrics,
      network: deps.config.network,
      logger: deps.logger,
    },
    app,
  );

  app.use(
    checkoutsRoutes({
      checkouts: new CheckoutRepository(deps.database.db),
      openOrders,
      jobs,
      fingerprints: deps.fingerprints,
      metrics: deps.metrics,
      network: deps.config.network,
      chain,
      tonProof: {
        ...deps.config.tonProof,
        payloads: new TonProofPayloads(
          deps.redis,
          `${deps.redisKeyPrefix ?? 'starsgate'}:`,
          deps.config.tonProof.ttlSeconds,
        ),
      },
      openCheckoutsPerPayer: deps.config.openCheckoutsPerPayer,
      payerQueue: new PerPayerQueue(),
      submissionLimits: checkoutSubmissionLimits({
        redis: deps.redis,
        prefix: `${deps.redisKeyPrefix ?? 'starsgate'}:expensive-routes:`,
        windowSeconds: deps.config.rateLimit.windowSeconds,
        limits: deps.config.checkoutSubmissions,
      }),
    }),
  );

  app.use(
    walletsRoutes({
      network: deps.config.network,
      chain,
      usdtMaster: parseWalletAddress(deps.config.usdtMaster, deps.config.network, 'USDT_MASTER_ADDRESS'),
    }),
  );

  app.use(availabilityRoutes({ availability: reads.availability, metrics: deps.metrics }));
  app.use(pricesRoutes({ prices: reads.prices }));
  // After the API: every router an API request walks past costs it a dispatch, probes are rare.
  app.use(healthRoutes({ pool: deps.database.pool, redis: deps.redis, state }));
  app.use(docsRoutes(document));

  const queues = deps.webhookQueue ? [deps.queue, deps.webhookQueue] : [deps.queue];
  const authFailures = new AdminAuthFailures(
    deps.redis,
    `${deps.redisKeyPrefix ?? 'starsgate'}:admin-auth-failures:`,
    deps.config.adminAuthFailures,
  );
  adminApp.use(metricsRoutes(deps.metrics.registry));
  adminApp.use(healthRoutes({ pool: deps.database.pool, redis: deps.redis, state }));
  mountAdminUi(adminApp, {
    config: deps.config,
    database: deps.database,
    redis: deps.redis,
    redisKeyPrefix: deps.redisKeyPrefix ?? 'starsgate',
    queues,
    authFailures,
    fingerprints: deps.fingerprints,
  });
  mountAdminApi(adminApp, {
    config: deps.config,
    database: deps.database,
    sealer: deps.sealer,
    chain,
    queues,
    redis: deps.redis,
    bullPrefix: deps.queue.opts.prefix ?? 'bull',
    authFailures,
    fingerprints: deps.fingerprints,
  });

  for (const each of [app, adminApp]) {
    each.use(notFound());
    each.use(errorHandler());
  }
  return { app, adminApp, state, reads };
}

/** An Express app with the settings and per-request middleware both listeners share, then `own`. */
function newApp(deps: GatewayDeps, state: HealthState, trustProxy: TrustProxy, own: RequestHandler[]): Express {
  const app = express();
  app.disable('x-powered-by');
  // Responses are per-request state (a purchase's status changes); a body hash per response buys nothing.
  app.set('etag', false);
  app.set('trust proxy', trustProxy);
  app.set('query parser', 'simple');
  // One router layer for all per-request middleware (see middleware-chain.ts).
  app.use(
    middlewareChain(
      // While draining, every response closes its keep-alive connection: clients reconnect to another
      // replica, and server.close() completes once the in-flight responses are sent instead of waiting
      // out SHUTDOWN_TIMEOUT_MS on connections that keep sending.
      (_req, res, next) => {
        if (state.draining) res.setHeader('Connection', 'close');
        next();
      },
      requestContext(app, deps.logger),
      accessLog(deps.metrics, deps.logger),
      ...own,
    ),
  );
  return app;
}

/** The shared read components over the gateway's Redis; the worker's price refresher uses the same prefix. */
function createReads(deps: GatewayDeps): FragmentReads {
  const { reads } = deps.config;
  if (reads.fragment.cookies === undefined) {
    deps.logger.warn(
      'Neither FRAGMENT_READ_COOKIES nor FRAGMENT_COOKIES is set: availability checks and prices will likely answer 503 until a Fragment login is configured',
    );
  }
  return createFragmentReads({
    fragment: {
      baseUrl: reads.fragment.baseUrl,
      cookies: reads.fragment.cookies ?? '',
      ...(reads.fragment.proxyUrl ? { proxyUrl: reads.fragment.proxyUrl } : {}),
      timeoutMs: reads.fragment.timeoutMs,
      tries: reads.fragment.tries,
    },
    redis: deps.redis,
    prefix: deps.redisKeyPrefix ? `${deps.redisKeyPrefix}:reads:` : reads.redisPrefix,
    availability: { ...reads.availability, disabledPaymentMethods: reads.disabledPaymentMethods },
    prices: reads.prices,
    limits: {
      global: { max: reads.limits.globalPerMinute, windowMs: 60_000 },
      perUsername: { max: reads.limits.perUsernamePerMinute, windowMs: 60_000 },
      defaultCooldownMs: reads.limits.cooldownMs,
    },
    memoryTtlMs: reads.memoryTtlMs,
    logger: deps.logger,
    instrument: (client) => instrumentUpstream(client, 'fragment_reads', deps.metrics.upstream),
  });
}
