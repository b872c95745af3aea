/**
 * The run's own world: a private PostgreSQL cluster (`starsgate_chaos` on port 5499, made with
 * pg_createcluster if missing) with a fresh migrated database, a private redis-server, and the
 * stack (sandbox, gateways, workers) started from the built artifacts. Nothing here touches the
 * main cluster or the Redis on 6379.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  freePort,
  PostgresCluster,
  REPO_ROOT,
  RedisServer,
  runToncenterEnv,
  startStack,
  type Stack,
} from '@starsgate/stack';
import type { ChaosOptions } from './options';
import { sandboxEnv, splitFragmentSessionModes } from './upstream-realism';

const run = promisify(execFile);

export const CHAOS_CLUSTER = { name: 'starsgate_chaos', port: 5499 };
const DATABASE = 'starsgate_chaos_run';

export interface Environment {
  postgres: PostgresCluster;
  redis: RedisServer;
  databaseUrl: string;
  stack: Stack;
  close(keepDatabase: boolean): Promise<void>;
}

/** Time limits of the run's service: shorter than production's so every row is final within the run. */
function serviceEnv(stepLimitSeconds: number): Record<string, string> {
  const limit = String(stepLimitSeconds * 1000);
  return {
    LOG_LEVEL: 'info',
    RATE_LIMIT_MAX: '1000000',
    // One driver stands for many payers: the intake caps on open unpaid orders would throttle it.
    OPEN_ORDERS_PER_PAYER: '10000000',
    OPEN_ORDERS_TOTAL: '10000000',
    PREPARING_MAX_AGE_MS: limit,
    WAITING_TO_SEND_MAX_AGE_MS: limit,
    SUBMITTED_MAX_AGE_MS: String(Math.min(180, stepLimitSeconds) * 1000),
    CONFIRMING_MAX_AGE_MS: limit,
    EVIDENCE_INTERVAL_MS: '30000',
    WEBHOOK_RETRY_BASE_MS: '2000',
    WEBHOOK_RETRY_MAX_MS: '30000',
    ...runToncenterEnv(),
  };
}

export async function startEnvironment(options: ChaosOptions, log: (line: string) => void): Promise<Environment> {
  const postgres = new PostgresCluster({ ...CHAOS_CLUSTER, maxConnections: 300 });
  await postgres.ensureRunning();
  const databaseUrl = await postgres.freshDatabase(DATABASE);
  await run('npx', ['tsx', 'packages/db/src/cli/migrate.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
  log(`PostgreSQL ${postgres.version}/${postgres.name} on ${postgres.port}, database ${DATABASE} migrated`);

  const redis = new RedisServer(await freePort(), path.join(options.logDir, 'redis.log'), REPO_ROOT);
  await redis.start();
  log(`redis-server on ${redis.port}`);

  let stack: Stack;
  try {
    stack = await startStack({
      logDir: options.logDir,
      databaseUrl,
      redisUrl: redis.url,
      gateways: options.gateways,
      workers: options.workers,
      bullmqPrefix: 'chaos',
      sandboxEnv: sandboxEnv(options.seed, options.validitySeconds),
      serviceEnv: serviceEnv(options.stepLimitSeconds),
    });
  } catch (error) {
    await redis.stop();
    throw error;
  }
  log(
    `stack up: sandbox ${stack.sandboxUrl}, ${stack.gateways.length} gateways behind ${stack.url}, ${stack.workers.length} workers`,
  );
  let modes: { linked: number; echo: number };
  try {
    modes = await splitFragmentSessionModes(stack.sandboxUrl);
  } catch (error) {
    await stack.stop();
    await redis.stop();
    throw error;
  }
  log(
    `Fragment sessions: ${modes.linked} name the linked wallet as transaction.from, ${modes.echo} echo the payer (docs/fragment-protocol.md §17)`,
  );
  return {
    postgres,
    redis,
    databaseUrl,
    stack,
    close: async (keepDatabase) => {
      await stack.stop();
      await redis.stop();
      if (!keepDatabase) await postgres.dropDatabase(DATABASE).catch(() => undefined);
    },
  };
}
