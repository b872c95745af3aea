// First: tracing patches modules as they load.
import { tracing } from './instrument';
import { migrateOrCheck } from '@starsgate/db';
import { createLogger, onTerminationSignals, refuseMemoryDumps, runMain } from '@starsgate/platform';
import { loadWorkerConfig } from './config';
import { createWorker } from './create-worker';

async function main(): Promise<void> {
  const warnings: string[] = [];
  const config = loadWorkerConfig(process.env, (message) => warnings.push(message));
  refuseMemoryDumps(process.env.NODE_ENV === 'production');
  const logger = createLogger({ service: 'worker', level: config.logLevel });
  for (const warning of warnings) logger.warn(warning);
  await migrateOrCheck(config.databaseUrl, config.databasePooler);
  const worker = createWorker(config, { logger });
  await worker.start();

  const shutdown = async (signal: string): Promise<void> => {
    logger.info('stopping: finishing active jobs', { signal });
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached; leases cover unfinished work');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await worker.close();
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
