/**
 * The worker's composition root: the one place its parts and the steps' dependencies are assembled
 * from its configuration. `main.ts` builds and starts it; the test harness and bench:pipeline build
 * it with the parts they hold (a test database, a queue under a fresh prefix, the sandbox's
 * upstreams) and run its processor in their own BullMQ worker. `close()` leaves passed-in parts to
 * their owner.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Queue } from 'bullmq';
import {
  AdminPurchaseReads,
  CheckoutRepository,
  connectDatabase,
  LeaseRepository,
  PaidLookalikes,
  ParkedPurchases,
  PayerReservations,
  PipelineReads,
  PurchaseRepository,
  PurchaseTransitions,
  RequestMac,
  SecretVault,
  SignedBatches,
  UpstreamFormatErrorRepository,
  WebhookDeliveries,
  WebhookEndpoints,
  type DatabaseHandle,
} from '@starsgate/db';
import { createFragmentReads, type FragmentSessionPool } from '@starsgate/fragment';
import {
  closeQueue,
  createLogger,
  createPurchaseQueue,
  createRedisConnection,
  createWebhookQueue,
  PURCHASE_QUEUE,
  redisConnectionOptions,
  type Logger,
  type PurchaseJobData,
} from '@starsgate/platform';
import type { ChainClient } from '@starsgate/ton';
import type { WorkerConfig } from './config';
import { startMetricsServer } from './observability/metrics-server';
import { pipelineGauges } from './observability/pipeline-gauges';
import { TransitionMetrics } from './observability/transition-metrics';
import { UpstreamHealth } from './observability/upstream-health';
import { publishUpstreamHealth } from './observability/upstream-health-publisher';
import { createWorkerMetrics, setLoginGauges, type WorkerMetrics } from './observability/worker-metrics';
import { PeriodicTask } from './periodic/periodic-task';
import { startPriceRefresher } from './prices/price-refresher';
import { createPurchaseProcessor } from './purchases/purchase-processor';
import { startPurchaseWorker } from './purchases/purchase-worker';
import { FragmentFromReporter } from './purchases/upstream/fragment-from-reporter';
import type { PriceQuoter } from './purchases/policy/price-precheck';
import { PayerHistories } from './purchases/chain/payer-history';
import { chainWatch } from './purchases/chain/chain-watch';
import { checkoutWatch } from './purchases/chain/checkout-watch';
import { deliveryWatch } from './purchases/delivery/delivery-watch';
import type { StepDeps } from './purchases/step-deps';
import { UpstreamFormatReporter } from './purchases/upstream/upstream-format';
import { collectEvidence, EVIDENCE_COLLECTOR } from './reconciliation/evidence-collector';
import { Sweeper } from './sweeper/sweeper';
import { createUpstreams } from './upstreams';
import { startWebhookWorker } from './webhooks/webhook-delivery';
import { drainWebhooks } from './webhooks/webhook-drain';
import { pruneWebhooks } from './webhooks/webhook-prune';

/** The parts a caller may bring instead of the ones built from the configuration. */
export interface WorkerParts {
  logger?: Logger;
  database?: DatabaseHandle;
  queue?: Queue<PurchaseJobData>;
  metrics?: WorkerMetrics;
  /** The chain provider and the Fragment sessions; both or neither (they are built together). */
  upstreams?: { chain: ChainClient; watchChain?: ChainClient; fragment: FragmentSessionPool };
  /** The price book of the funds pre-check; without it, the price refresher's when prices are on. */
  prices?: PriceQuoter;
  workerId?: string;
}

export interface CreatedWorker {
  /** Everything a step may touch, assembled once. */
  deps: StepDeps;
  metrics: WorkerMetrics;
  /** The BullMQ processor of the purchase queue over `deps`. */
  processor: ReturnType<typeof createPurchaseProcessor>;
  /** Starts the process's loops: purchases, sweeper, webhooks, evidence collector, health, metrics listener. */
  start(): Promise<void>;
  /** Stops what `start()` started (active jobs finish), then closes the connections built here. */
  close(): Promise<void>;
}

/** What `start()` started, stopped in the order a draining worker needs: timers, then the running jobs, then connections. */
interface RunningLoops {
  stopTimers(): Promise<void>;
  stopWorkers(): Promise<void>;
  connections: Array<() => Promise<unknown>>;
}

export function createWorker(config: WorkerConfig, parts: WorkerParts = {}): CreatedWorker {
  const closers: Array<() => Promise<unknown>> = [];
  const own = <T>(part: T, close: (part: T) => Promise<unknown>): T => {
    closers.push(() => close(part));
    return part;
  };
  const logger = parts.logger ?? createLogger({ service: 'worker', level: config.logLevel });
  const database =
    parts.database ??
    own(
      connectDatabase(config.databaseUrl, {
        applicationName: 'starsgate-worker',
        transactionPooler: config.databasePooler === 'transaction',
      }),
      (handle) => handle.close(),
    );
  const queue =
    parts.queue ??
    own(
      createPurchaseQueue(config.redisUrl, config.bullPrefix, (error) =>
        logger.warn('queue connection error', { error }),
      ),
      closeQueue,
    );
  const workerId = parts.workerId ?? `worker-${randomUUID().slice(0, 8)}`;
  const metrics = parts.metrics ?? createWorkerMetrics();
  const health = new UpstreamHealth(Math.max(1, config.fragmentCookies.length), metrics);
  const upstreams =
    parts.upstreams ?? own(createUpstreams(config, logger, { metrics, health }), (built) => built.close());
  const vault = new SecretVault(config.keyRing);
  const leases = new LeaseRepository(database.db);
  const priceRefresher = parts.prices === undefined && config.prices.enabled ? startOwnPriceRefresher() : undefined;
  // The funds and price checks need a price book even when nothing keeps the list warm (attack 19e).
  const prices = parts.prices ?? priceRefresher?.refresher.reads.prices ?? ownPriceBook();

  const deps: StepDeps = {
    config,
    transitions: new PurchaseTransitions(database.db),
    signedBatches: new SignedBatches(database.db),
    parkedPurchases: new ParkedPurchases(database.db),
    paidLookalikes: new PaidLookalikes(database.db),
    checkouts: new CheckoutRepository(database.db),
    leases,
    reservations: new PayerReservations(database.db),
    vault,
    requestMac: new RequestMac(config.keyRing),
    chain: upstreams.chain,
    payerHistories: new PayerHistories(upstreams.watchChain ?? upstreams.chain, {
      reuseMs: config.pollIntervalMs,
      now: Date.now,
    }),
    fragment: upstreams.fragment,
    prices,
    queue,
    logger,
    upstreamFormat: new UpstreamFormatReporter(logger, metrics, new UpstreamFormatErrorRepository(database.db)),
    fragmentFrom: new FragmentFromReporter(logger, metrics),
    workerId,
    now: Date.now,
    sleep,
    transitionMetrics: new TransitionMetrics(metrics),
  };
  deps.deliveryWatch = deliveryWatch(deps);
  deps.checkoutWatch = checkoutWatch(deps);
  deps.chainWatch = chainWatch(deps);
  const processor = createPurchaseProcessor(deps);
  let loops: RunningLoops | undefined;

  return {
    deps,
    metrics,
    processor,
    start: async () => {
      loops = await startLoops();
    },
    close: async () => {
      await loops?.stopTimers();
      await priceRefresher?.refresher.stop();
      await priceRefresher?.redis.quit();
      await loops?.stopWorkers();
      await Promise.allSettled([...(loops?.connections ?? []), ...closers].map((close) => close()));
    },
  };

  function ownPriceBook(): PriceQuoter {
    const redis = own(createRedisConnection(config.redisUrl), (connection) => connection.quit());
    return createFragmentReads({
      fragment: upstreams.fragment.clients[0]!,
      redis,
      prefix: config.prices.redisPrefix,
      logger,
    }).prices;
  }

  function startOwnPriceRefresher() {
    const redis = createRedisConnection(config.redisUrl);
    const refresher = startPriceRefresher({
      redis,
      logger,
      intervalMs: config.prices.intervalMs,
      redisPrefix: config.prices.redisPrefix,
      // The first session: price reads take its flow mutex like a purchase flow would.
      fragment: upstreams.fragment.clients[0]!,
    });
    return { refresher, redis };
  }

  /** The scrape-time gauges, then each Fragment login's state (alive 1, dead 0) as Redis holds it. */
  function withLoginGauges(before: () => Promise<void>): () => Promise<void> {
    return async () => {
      await before();
      setLoginGauges(metrics.fragmentLoginAlive, await upstreams.fragment.logins());
    };
  }

  /** The long-running parts of a worker process, in the order `main.ts` has always started them. */
  async function startLoops(): Promise<RunningLoops> {
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
      purchases: new PurchaseRepository(database.db),
      leases: new LeaseRepository(database.db),
      queue,
      logger,
      batchSize: config.sweepBatchSize,
      intervalMs: config.sweepIntervalMs,
    });
    sweeper.start();
    deps.deliveryWatch?.start();
    deps.checkoutWatch?.start();
    deps.chainWatch?.start();

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
    // One replica at a time reads the dead logins' pages; every replica reads their states.
    const loginRecheck = new PeriodicTask(
      'fragment-login-recheck',
      { leases, logger, intervalMs: config.fragmentLoginRecheckMs },
      async () => {
        await upstreams.fragment.recheckDead();
      },
    );
    loginRecheck.start();
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
            beforeScrape: withLoginGauges(
              pipelineGauges(metrics, { pipeline: new PipelineReads(database.db), queues: [queue, webhookQueue] }),
            ),
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

    return {
      stopTimers: async () => {
        await metricsServer?.close();
        await healthPublisher.stop();
        await Promise.all([
          sweeper.stop(),
          deps.deliveryWatch?.stop(),
          deps.checkoutWatch?.stop(),
          deps.chainWatch?.stop(),
          webhookDrain.stop(),
          webhookPrune.stop(),
          evidenceCollector.stop(),
          loginRecheck.stop(),
        ]);
      },
      stopWorkers: async () => {
        await Promise.all([worker.close(), webhookWorker.close()]);
      },
      connections: [() => closeQueue(webhookQueue), () => healthRedis.quit()],
    };
  }
}
