/**
 * `npm start` itself (tools/stack/src/start.ts, which starts the sandbox, gateway and worker
 * through the stack launcher, @starsgate/stack) with `--from=build` (the services' bundles, rebuilt
 * first when older than their sources: a stack starts on 7.7 CPU-seconds instead of 10 from tsx)
 * on free ports, a fresh database and this jest worker's Redis under a fresh BullMQ prefix: the
 * suites that hold `npm start` to what it promises.
 * Fragment's simulated delays are cut to milliseconds (FAST_FRAGMENT_TIMINGS) unless `env` sets
 * SANDBOX_FRAGMENT_CONFIG: the suites wait for deliveries, not for Fragment's own 10 to 60 s.
 * What `npm start` writes into STARSGATE_DATA_DIR (sandbox.env, development keys) goes to a
 * temporary folder of the stack's, removed when it stops: the developer's `.data/` belongs to their
 * own `npm start` (a test stack's sandbox.env there sent `npm run doctor` to a stack that was gone).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateRingEntry } from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { createRedisConnection } from '@starsgate/platform';
import { freePort, waitFor } from '@starsgate/platform/testing';
import { FAST_FRAGMENT_TIMINGS } from '@starsgate/sandbox/fragment';

const ROOT = path.resolve(__dirname, '../..');

export interface RunningStack {
  gatewayUrl: string;
  /** Where the operator surfaces (/admin, /admin/api, /metrics) answer. */
  adminUrl: string;
  sandboxUrl: string;
  workerMetricsUrl: string;
  adminToken: string;
  database: TestDatabase;
  /** The stack's temporary folder (removed at stop), a newcomer's checkout as far as `.data/` goes. */
  home: string;
  /** Its STARSGATE_DATA_DIR: `<home>/.data` unless `env` names one. */
  dataDir: string;
  /** The process group of `npm start` (the sandbox, gateway and worker are its children). */
  pid: number;
  output(): string;
  stop(): Promise<void>;
}

/**
 * The gateway keeps its limiters' counts under a fixed `starsgate:` prefix (one deployment per
 * Redis); a stack started in the same Redis database within a window would inherit the last one's.
 */
const GATEWAY_LIMIT_KEYS = ['rate-limit', 'expensive-routes', 'admin-auth-failures', 'admin-login'].map(
  (name) => `starsgate:${name}:*`,
);

async function clearGatewayLimits(redisUrl: string): Promise<void> {
  const redis = createRedisConnection(redisUrl);
  try {
    for (const pattern of GATEWAY_LIMIT_KEYS) {
      const keys: string[] = [];
      for await (const batch of redis.scanStream({ match: pattern, count: 1000 })) keys.push(...(batch as string[]));
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    await redis.quit();
  }
}

export async function startStack(env: Record<string, string> = {}): Promise<RunningStack> {
  await clearGatewayLimits(env.REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  const [gatewayPort, adminPort, sandboxPort, metricsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const database = await createTestDatabase();
  const home = mkdtempSync(path.join(tmpdir(), 'starsgate-stack-'));
  const dataDir = env.STARSGATE_DATA_DIR ?? path.join(home, '.data');
  const adminToken = `stack-admin-${randomBytes(12).toString('hex')}`;
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'tools/stack/src/start.ts', '--from=build'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(gatewayPort),
      ADMIN_PORT: String(adminPort),
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DATA_DIR: 'memory',
      SANDBOX_PRICE_DRIFT: 'off',
      SANDBOX_FRAGMENT_CONFIG: JSON.stringify(FAST_FRAGMENT_TIMINGS),
      DATABASE_URL: database.url,
      BULLMQ_PREFIX: `stack-${randomBytes(4).toString('hex')}`,
      STARSGATE_SECRET_KEY: generateRingEntry('s1'),
      // Its own, so a test can compute the keyed admin token id (gatewayKeys in test/security/support).
      STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}`,
      STARSGATE_ADMIN_TOKENS: adminToken,
      WORKER_METRICS_PORT: String(metricsPort),
      WORKER_METRICS_HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      STARSGATE_DATA_DIR: dataDir,
      ...env,
    },
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-50_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
    const forced = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 15_000);
    await exited;
    clearTimeout(forced);
    await database.drop();
    rmSync(home, { recursive: true, force: true });
  };

  try {
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error('npm start exited');
        return output.includes('[start] gateway ready');
      },
      { timeoutMs: 180_000, intervalMs: 250, what: '[start] gateway ready' },
    );
  } catch (error) {
    await stop();
    throw new Error(`the stack did not start (${(error as Error).message}):\n${output}`, { cause: error });
  }
  return {
    gatewayUrl: `http://127.0.0.1:${gatewayPort}`,
    adminUrl: `http://127.0.0.1:${adminPort}`,
    sandboxUrl: `http://127.0.0.1:${sandboxPort}`,
    workerMetricsUrl: `http://127.0.0.1:${metricsPort}`,
    adminToken,
    database,
    home,
    dataDir,
    pid: child.pid!,
    output: () => output,
    stop,
  };
}
