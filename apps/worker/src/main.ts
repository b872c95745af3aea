// First: tracing patches modules as they load.
import { tracing } from './instrument';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AdminPurchaseReads,
  CheckoutRepository,
  connectDatabase,
  LeaseRepository,
  migrateDatabase,
  PipelineReads,
  PurchaseRepository,
  PurchaseTransitions,
  SecretVault,
  UpstreamFormatErrorRepository,
  WebhookDeliveries,
  WebhookEndpoints,
} from '@starsgate/db';
import {
  closeQueue,
  createLogger,
  createPurchaseQueue,
  createRedisConnection,
  createWebhookQueue,
  onTerminationSignals,
  PURCHASE_QUEUE,
  redisConnectionOptions,
  refuseMemoryDumps,
  runMain,
} from '@starsgate/platform';
import { loadWorkerConfig } from './config';
import { createPurchaseProcessor } from './purchases/purchase-processor';
import { startPurchaseWorker } from './purchases/purchase-worker';
import { startPriceRefresher } from './prices/price-refresher';
import { PeriodicTask } from './periodic/periodic-task';
import type { StepDeps } from './purchases/step-deps';
import { collectEvidence, EVIDENCE_COLLECTOR } from './reconciliation/evidence-collector';
import { Sweeper } from './sweeper/sweeper';
import { startWebhookWorker } from './webhooks/webhook-delivery';
import { drainWebhooks } from './webhooks/webhook-drain';
import { pruneWebhooks } from './webhooks/webhook-prune';
import { createUpstreams } from './upstreams';
import { FragmentFromReporter } from './purchases/upstream/fragment-from-reporter';
import { UpstreamFormatReporter } from './purchases/upstream/upstream-format';
import { startMetricsServer } from './observability/metrics-server';
import { pipelineGauges } from './observability/pipeline-gauges';
import { TransitionMetrics } from './observability/transition-metrics';
import { UpstreamHealth } from './observability/upstream-health';
import { publishUpstreamHealth } from './observability/upstream-health-publisher';
import { createWorkerMetrics } from './observability/worker-metrics';

async function main(): Promise<void> {
  const warnings: string[] = [];
  const config = loadWorkerConfig(process.env, (message) => warnings.push(message));
  refuseMemoryDumps(process.env.NODE_ENV === 'production');
  const logger = createLogger({ service: 'worker', level: config.logLevel });
  for (const warning of warnings) logger.warn(warning);
  await migrateDatabase(config.databaseUrl);
  const database = connectDatabase(config.databaseUrl, { applicationName: 'starsgate-worker' });
  const purchases = new PurchaseRepository(database.db);
  const queue = createPurchaseQueue(config.redisUrl, config.bullPrefix, (error) =>
    logger.warn('queue connection error', { error }),
  );

  const workerId = `worker-${randomUUID().slice(0, 8)}`;
  const metrics = createWorkerMetrics();
  const health = new UpstreamHealth(Math.max(1, config.fragmentCookies.length), metrics);
  const upstreams = createUpstreams(config, logger, { metrics, health });
  const vault = new SecretVault(config.keyRing);
  const leases = new LeaseRepository(database.db);
  const { prices } = config;
  const pricesRedis = prices.enabled ? createRedisConnection(config.redisUrl) : undefined;
  const priceRefresher = pricesRedis
    ? startPriceRefresher({
        redis: pricesRedis,
        logger,
        intervalMs: prices.intervalMs,
        redisPrefix: prices.redisPrefix,
        // The first session: price reads take its flow mutex like a purchase flow would.
        fragment: upstreams.fragment.clients[0]!,
      })
    : undefined;
  const deps: StepDeps = {
    config,
    transitions: new PurchaseTransitions(database.db),
    checkouts: new CheckoutRepository(database.db),
    leases,
    vault,
    chain: upstreams.chain,
    fragment: upstreams.fragment,
    ...(priceRefresher ? { prices: priceRefresher.reads.prices } : {}),
    queue,
    logger,
    upstreamFormat: new UpstreamFormatReporter(logger, metrics, new UpstreamFormatErrorRepository(database.db)),
    fragmentFrom: new FragmentFromReporter(logger, metrics),
    workerId,
    now: Date.now,
    sleep,
    transitionMetrics: new TransitionMetrics(metrics),
  };
  const processor = createPurchaseProcessor(deps);

  const { worker } = startPurchaseWorker({
    connection: redisConnectionOptions(config.redisUrl, { forWorker: true }),
    prefix: config.bullPrefix,
    concurrency: config.concurrency,
    jobLockMs: config.jobLockMs,
    processor,
    fragment: upstreams.fragment,
    logger,
  });

  const sweeper = new Sweeper({
    purchases,
    leases: new LeaseRepository(database.db),
    queue,
    logger,
    batchSize: config.sweepBatchSize,
    intervalMs: config.sweepIntervalMs,
  });
  sweeper.start();

  const webhookQueue = createWebhookQueue(config.redisUrl, config.bullPrefix, (error) =>
    logger.warn('webhook queue connection error', { error }),
  );
  const webhookDeliveries = new WebhookDeliveries(database.db);
  const webhookWorker = startWebhookWorker({
    deliveries: webhookDeliveries,
    endpoints: new WebhookEndpoints(database.db, vault),
    queue: webhookQueue,
    config: config.webhooks,
    logger,
    onAttempt: (outcome) => metrics.webhookAttempts.inc({ outcome }),
    connection: redisConnectionOptions(config.redisUrl, { forWorker: true }),
    prefix: config.bullPrefix,
  });
  const webhookDrain = new PeriodicTask(
    'webhook-drain',
    { leases, logger, intervalMs: config.webhooks.drainIntervalMs },
    async () => {
      await drainWebhooks(webhookDeliveries, webhookQueue);
    },
  );
  webhookDrain.start();
  const webhookPrune = new PeriodicTask(
    'webhook-prune',
    { leases, logger, intervalMs: config.webhooks.pruneIntervalMs },
    async () => {
      const pruned = await pruneWebhooks(webhookDeliveries, config.webhooks.retentionDays);
      if (pruned > 0) logger.info('webhook events pruned', { pruned, retentionDays: config.webhooks.retentionDays });
    },
  );
  webhookPrune.start();
  const reads = new AdminPurchaseReads(database.db);
  const evidenceCollector = new PeriodicTask(
    EVIDENCE_COLLECTOR,
    { leases, logger, intervalMs: config.evidenceIntervalMs },
    async () => {
      await collectEvidence(deps, reads);
    },
  );
  evidenceCollector.start();
  const healthRedis = createRedisConnection(config.redisUrl);
  const healthPublisher = publishUpstreamHealth({
    redis: healthRedis,
    bullPrefix: config.bullPrefix,
    workerId,
    health,
    logger,
  });
  const metricsServer =
    config.metricsPort > 0
      ? await startMetricsServer({
          host: config.metricsHost,
          port: config.metricsPort,
          registry: metrics.registry,
          beforeScrape: pipelineGauges(metrics, {
            pipeline: new PipelineReads(database.db),
            queues: [queue, webhookQueue],
          }),
          readiness: {
            postgres: async () => (await database.pool.query('SELECT 1')).rowCount === 1,
            redis: async () => (await healthRedis.ping()) === 'PONG',
            worker: () => Promise.resolve(worker.isRunning()),
          },
          logger,
        }).catch((error: unknown) => {
          // Purchases go on without it; the missing /livez shows the problem to the probes.
          logger.error('worker metrics listener not started', { port: config.metricsPort, error });
          return undefined;
        })
      : undefined;
  logger.info('worker started', {
    queue: PURCHASE_QUEUE,
    concurrency: config.concurrency,
    metrics_port: metricsServer?.port ?? 'disabled',
  });

  const shutdown = async (signal: string): Promise<void> => {
    logger.info('stopping: finishing active jobs', { signal });
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached; leases cover unfinished work');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await metricsServer?.close();
    await healthPublisher.stop();
    await Promise.all([sweeper.stop(), webhookDrain.stop(), webhookPrune.stop(), evidenceCollector.stop()]);
    await priceRefresher?.stop();
    await pricesRedis?.quit();
    await Promise.all([worker.close(), webhookWorker.close()]);
    await Promise.allSettled([
      closeQueue(queue),
      closeQueue(webhookQueue),
      healthRedis.quit(),
      upstreams.close(),
      database.close(),
    ]);
    await tracing?.shutdown().catch((error: unknown) => logger.warn('trace export at shutdown failed', { error }));
    clearTimeout(deadline);
    logger.info('stopped');
    logger.end();
    // Redis connections and keep-alive sockets would otherwise hold the process open.
    setTimeout(() => process.exit(0), 100).unref();
    process.exitCode = 0;
  };
  onTerminationSignals(logger, shutdown);
}

runMain(main);
