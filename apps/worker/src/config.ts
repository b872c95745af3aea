import { EnvReader } from '@starsgate/platform';

export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  bullPrefix: string;
  concurrency: number;
  logLevel: string;
  sweepIntervalMs: number;
  sweepBatchSize: number;
  shutdownTimeoutMs: number;
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const read = new EnvReader(env);
  const config: WorkerConfig = {
    databaseUrl: read.url('DATABASE_URL', 'postgres://postgres@127.0.0.1:5432/starsgate', ['postgres:', 'postgresql:']),
    redisUrl: read.url('REDIS_URL', 'redis://127.0.0.1:6379', ['redis:', 'rediss:']),
    bullPrefix: read.string('BULLMQ_PREFIX', 'bull'),
    concurrency: read.integer('WORKER_CONCURRENCY', 16, { min: 1, max: 1_000 }),
    logLevel: read.oneOf('LOG_LEVEL', 'info', ['silent', 'error', 'warn', 'info', 'http', 'verbose', 'debug'] as const),
    sweepIntervalMs: read.integer('SWEEP_INTERVAL_MS', 30_000, { min: 100, max: 3_600_000 }),
    sweepBatchSize: read.integer('SWEEP_BATCH_SIZE', 1_000, { min: 1, max: 100_000 }),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 20_000, { min: 0, max: 300_000 }),
  };
  read.finish();
  return config;
}
