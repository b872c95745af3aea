import { Worker } from 'bullmq';
import { connectDatabase, LeaseRepository, migrateDatabase, PurchaseRepository } from '@starsgate/db';
import {
  ConfigError,
  createLogger,
  createPurchaseQueue,
  createRedisConnection,
  PURCHASE_QUEUE,
  type PurchaseJobData,
} from '@starsgate/platform';
import { loadWorkerConfig } from './config';
import { createPurchaseProcessor } from './purchases/purchase-processor';
import { Sweeper } from './sweeper/sweeper';

async function main(): Promise<void> {
  const config = loadWorkerConfig();
  const logger = createLogger({ service: 'worker', level: config.logLevel });
  await migrateDatabase(config.databaseUrl);
  const database = connectDatabase(config.databaseUrl, { applicationName: 'starsgate-worker' });
  const purchases = new PurchaseRepository(database.db);
  const queue = createPurchaseQueue(createRedisConnection(config.redisUrl), config.bullPrefix);

  const worker = new Worker<PurchaseJobData>(PURCHASE_QUEUE, createPurchaseProcessor({ purchases, logger }), {
    connection: createRedisConnection(config.redisUrl, { forWorker: true }),
    prefix: config.bullPrefix,
    concurrency: config.concurrency,
  });
  worker.on('failed', (job, error) => logger.error('purchase job failed', { job_id: job?.id, error }));
  worker.on('error', (error) => logger.error('worker error', { error }));

  const sweeper = new Sweeper({
    purchases,
    leases: new LeaseRepository(database.db),
    queue,
    logger,
    batchSize: config.sweepBatchSize,
    intervalMs: config.sweepIntervalMs,
  });
  sweeper.start();
  logger.info('worker started', { queue: PURCHASE_QUEUE, concurrency: config.concurrency });

  let stopping = false;
  const shutdown = async (signal: string): Promise<void> => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info('stopping: finishing active jobs', { signal });
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached; leases cover unfinished work');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await sweeper.stop();
    await worker.close();
    await Promise.allSettled([queue.close(), database.close()]);
    clearTimeout(deadline);
    logger.info('stopped');
    logger.end();
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof ConfigError ? error.message : error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
