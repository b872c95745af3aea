import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AdminPurchaseReads,
  connectDatabase,
  LeaseRepository,
  migrateDatabase,
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
  runMain,
} from '@starsgate/platform';
import { loadWorkerConfig } from './config';
import { createPurchaseProcessor } from './purchases/purchase-processor';
import { startPurchaseWorker } from './purchases/purchase-worker';
import { startPriceRefresher } from './prices/price-refresher';
import { PeriodicTask } from './periodic/periodic-task';
import type { StepDeps } from './purchases/state-machine/step-deps';
import { collectEvidence, EVIDENCE_COLLECTOR } from './reconciliation/evidence-collector';
import { Sweeper } from './sweeper/sweeper';
import { startWebhookWorker } from './webhooks/webhook-delivery';
import { drainWebhooks } from './webhooks/webhook-drain';
import { createUpstreams } from './upstreams';
import { createWorkerMetrics } from './observability/metrics';
import { UpstreamFormatReporter } from './purchases/state-machine/upstream-format';

async function main(): Promise<void> {
  const warnings: string[] = [];
  const config = loadWorkerConfig(process.env, (message) => warnings.push(message));
  const logger = createLogger({ service: 'worker', level: config.logLevel });
  for (const warning of warnings) logger.warn(warning);
  await migrateDatabase(config.databaseUrl);
  const database = connectDatabase(config.databaseUrl, { applicationName: 'starsgate-worker' });
  const purchases = new PurchaseRepository(database.db);
  const queue = createPurchaseQueue(config.redisUrl, config.bullPrefix, (error) =>
    logger.warn('queue connection error', { error }),
  );

  const upstreams = createUpstreams(config, logger);
  const metrics = createWorkerMetrics();
  const vault = new SecretVault(config.keyRing);
  const leases = new LeaseRepository(database.db);
  const deps: StepDeps = {
    config,
    transitions: new PurchaseTransitions(database.db),
    leases,
    vault,
    chain: upstreams.chain,
    fragment: upstreams.fragment,
    queue,
    logger,
    upstreamFormat: new UpstreamFormatReporter(logger, metrics, new UpstreamFormatErrorRepository(database.db)),
    workerId: `worker-${randomUUID().slice(0, 8)}`,
    now: Date.now,
    sleep,
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
  const reads = new AdminPurchaseReads(database.db);
  const evidenceCollector = new PeriodicTask(
    EVIDENCE_COLLECTOR,
    { leases, logger, intervalMs: config.evidenceIntervalMs },
    async () => {
      await collectEvidence(deps, reads);
    },
  );
  evidenceCollector.start();
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
  logger.info('worker started', { queue: PURCHASE_QUEUE, concurrency: config.concurrency });

  const shutdown = async (signal: string): Promise<void> => {
    logger.info('stopping: finishing active jobs', { signal });
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached; leases cover unfinished work');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await Promise.all([sweeper.stop(), webhookDrain.stop(), evidenceCollector.stop()]);
    await priceRefresher?.stop();
    await pricesRedis?.quit();
    await Promise.all([worker.close(), webhookWorker.close()]);
    await Promise.allSettled([closeQueue(queue), closeQueue(webhookQueue), database.close()]);
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
