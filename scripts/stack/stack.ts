/**
 * The service as separate OS processes from the built artifacts (`npm run build`): one sandbox,
 * N gateways, M workers, each with its own log file under `logDir`, and a round-robin proxy in
 * front of the gateways. PostgreSQL and Redis are the caller's (see postgres-cluster.ts and
 * redis-server.ts for private ones).
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@starsgate/platform/testing';
import { ManagedProcess } from './managed-process';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';
import { upstreamEnv, type SandboxDemo } from './service-env';
import { generateRingEntry, parseKeyRing, sealKeyOf } from '@starsgate/db';

export const REPO_ROOT = path.resolve(__dirname, '../..');

export const ENTRYPOINTS = {
  gateway: 'apps/gateway/dist/main.js',
  worker: 'apps/worker/dist/main.js',
  sandbox: 'apps/sandbox/dist/main.js',
} as const;

export interface StackOptions {
  logDir: string;
  databaseUrl: string;
  redisUrl: string;
  gateways?: number;
  workers?: number;
  /** BullMQ key prefix (default: a fresh one). */
  bullmqPrefix?: string;
  /** Extra env of the sandbox (SANDBOX_FAULTS, SANDBOX_SEED, SANDBOX_BLOCK_MS …). */
  sandboxEnv?: Record<string, string>;
  /** Extra env of both the gateways and the workers (LOG_LEVEL, time limits …). */
  serviceEnv?: Record<string, string>;
  gatewayEnv?: Record<string, string>;
  workerEnv?: Record<string, string>;
  /** Start the round-robin proxy (default true). */
  proxy?: boolean;
}

export interface Stack {
  sandbox: ManagedProcess;
  sandboxUrl: string;
  demo: SandboxDemo;
  gateways: ManagedProcess[];
  gatewayUrls: string[];
  /** Each gateway's operator listener (`/metrics`, `/admin`, `/admin/api`), in the order of `gatewayUrls`. */
  adminUrls: string[];
  workers: ManagedProcess[];
  workerMetricsUrls: string[];
  /** The proxy's URL (or the first gateway's without a proxy): where clients send requests. */
  url: string;
  /** Where operator calls go: a round-robin proxy over `adminUrls` (or the first one without a proxy). */
  adminUrl: string;
  proxy?: RoundRobinProxy;
  adminProxy?: RoundRobinProxy;
  adminToken: string;
  /** The env every gateway and worker got (DATABASE_URL, REDIS_URL, STARSGATE_SECRET_KEY …). */
  serviceEnv: Record<string, string>;
  processes(): ManagedProcess[];
  stop(): Promise<void>;
}

function nodeProcess(
  name: string,
  kind: 'gateway' | 'worker' | 'sandbox',
  env: Record<string, string>,
  logDir: string,
  readyUrl: string,
): ManagedProcess {
  return new ManagedProcess({
    name,
    kind,
    command: process.execPath,
    args: [path.join(REPO_ROOT, ENTRYPOINTS[kind])],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root', ...env },
    cwd: REPO_ROOT,
    logFile: path.join(logDir, `${name}.log`),
    readyUrl,
  });
}

export async function startStack(options: StackOptions): Promise<Stack> {
  for (const entry of Object.values(ENTRYPOINTS))
    if (!existsSync(path.join(REPO_ROOT, entry))) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  mkdirSync(options.logDir, { recursive: true });

  const sandboxPort = await freePort();
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = nodeProcess(
    'sandbox',
    'sandbox',
    { SANDBOX_PORT: String(sandboxPort), SANDBOX_DATA_DIR: 'memory', ...options.sandboxEnv },
    options.logDir,
    `${sandboxUrl}/demo`,
  );
  const started: ManagedProcess[] = [sandbox];
  const stopAll = async (): Promise<void> => {
    await Promise.all(started.filter((p) => p.kind !== 'sandbox').map((p) => p.stop()));
    await sandbox.stop();
  };

  try {
    await sandbox.start();
    const demo = (await (await fetch(`${sandboxUrl}/demo`)).json()) as SandboxDemo;
    const adminToken = `chaos-admin-${randomBytes(16).toString('hex')}`;
    const serviceEnv: Record<string, string> = {
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: options.databaseUrl,
      REDIS_URL: options.redisUrl,
      BULLMQ_PREFIX: options.bullmqPrefix ?? `stack-${randomBytes(4).toString('hex')}`,
      STARSGATE_ADMIN_TOKENS: adminToken,
      // The runs' webhook receivers listen on this machine's loopback, as `npm start`'s may.
      WEBHOOK_ALLOW_PRIVATE: 'loopback',
      ...upstreamEnv(sandboxUrl, demo),
      ...options.serviceEnv,
    };

    // As in production: the worker opens secrets, the gateway only seals to its public key.
    const secretKey = generateRingEntry('s1');
    const workerKeys = { STARSGATE_SECRET_KEY: secretKey };
    const gatewayKeys = {
      STARSGATE_SEAL_KEY: sealKeyOf(parseKeyRing(secretKey)),
      STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}`,
    };
    const gatewayUrls: string[] = [];
    const adminUrls: string[] = [];
    const gateways: ManagedProcess[] = [];
    for (let i = 1; i <= (options.gateways ?? 2); i++) {
      const [port, adminPort] = [await freePort(), await freePort()];
      const url = `http://127.0.0.1:${port}`;
      gatewayUrls.push(url);
      adminUrls.push(`http://127.0.0.1:${adminPort}`);
      gateways.push(
        nodeProcess(
          `gateway-${i}`,
          'gateway',
          {
            ...serviceEnv,
            ...gatewayKeys,
            HOST: '127.0.0.1',
            PORT: String(port),
            ADMIN_PORT: String(adminPort),
            ...options.gatewayEnv,
          },
          options.logDir,
          `${url}/readyz`,
        ),
      );
    }
    const workerMetricsUrls: string[] = [];
    const workers: ManagedProcess[] = [];
    for (let i = 1; i <= (options.workers ?? 3); i++) {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      workerMetricsUrls.push(url);
      workers.push(
        nodeProcess(
          `worker-${i}`,
          'worker',
          {
            ...serviceEnv,
            ...workerKeys,
            WORKER_METRICS_HOST: '127.0.0.1',
            WORKER_METRICS_PORT: String(port),
            ...options.workerEnv,
          },
          options.logDir,
          `${url}/readyz`,
        ),
      );
    }
    // One at a time: the first start migrates the database, and two cores start faster in turn.
    for (const p of [...gateways, ...workers]) {
      started.push(p);
      await p.start();
    }

    const proxy = options.proxy === false ? undefined : await startRoundRobinProxy(() => gatewayUrls);
    const adminProxy = options.proxy === false ? undefined : await startRoundRobinProxy(() => adminUrls);
    return {
      sandbox,
      sandboxUrl,
      demo,
      gateways,
      gatewayUrls,
      adminUrls,
      workers,
      workerMetricsUrls,
      url: proxy?.url ?? gatewayUrls[0]!,
      adminUrl: adminProxy?.url ?? adminUrls[0]!,
      ...(proxy ? { proxy } : {}),
      ...(adminProxy ? { adminProxy } : {}),
      adminToken,
      serviceEnv,
      processes: () => [sandbox, ...gateways, ...workers],
      stop: async () => {
        await Promise.all([proxy?.close(), adminProxy?.close()]);
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
