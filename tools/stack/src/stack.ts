/**
 * The one stack launcher: one sandbox, N gateways, M workers as separate OS processes, each a
 * ManagedProcess (its own log file under `logDir`, or the launcher's terminal), and a round-robin
 * proxy in front of the gateways. It runs the built artifacts (`npm run build`, rebuilt first when
 * stale: chaos, soak, the deployment tests, the test suites' stacks) or the sources through tsx
 * (`npm start`).
 * PostgreSQL and Redis are the caller's (see postgres-cluster.ts and redis-server.ts for private
 * ones).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '@starsgate/platform/testing';
import { freshBundle, REPO_ROOT, SOURCE_ENTRYPOINTS, type ServiceKind } from './entrypoints';
import { withHeapFlags } from './heap-flags';
import { ManagedProcess } from './managed-process';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';
import { generatedServiceKeys, type ServiceKeys } from './service-keys';
import { upstreamEnv, type SandboxDemo } from './service-env';

export interface StackOptions {
  /** `build` (default): the bundles in `dist/`, rebuilt first when stale (entrypoints.ts); `source`: `src/main.ts` through tsx. */
  from?: 'build' | 'source';
  /**
   * `deployed` (the default from `build`): the services as deployed (NODE_ENV=production,
   * LOG_LEVEL=info) and the sandbox's state in memory; `development` (the default from `source`,
   * and `npm start` either way): the caller's own settings from `baseEnv`.
   */
  profile?: 'deployed' | 'development';
  /** One log file per process here; absent, every process writes to the launcher's stdout and stderr. */
  logDir?: string;
  /** Absent: the services read DATABASE_URL and REDIS_URL from `baseEnv`. */
  databaseUrl?: string;
  redisUrl?: string;
  /**
   * What every process inherits before the launcher's own variables (default: PATH and HOME only,
   * so a run depends on nothing else of the caller's environment).
   */
  baseEnv?: NodeJS.ProcessEnv;
  gateways?: number;
  workers?: number;
  /** BullMQ key prefix (default: a fresh one; `null`: the services' own, from `baseEnv` or their default). */
  bullmqPrefix?: string | null;
  /**
   * Start the sandbox and point the services at it (default true). `false`: the services' upstream
   * variables come from `baseEnv` and `serviceEnv` (real Fragment and toncenter).
   */
  sandbox?: boolean;
  /** Fixed ports (default: free ones); with one gateway and one worker. */
  ports?: { sandbox?: number; gateway?: number; admin?: number; workerMetrics?: number };
  /** The keys each service gets (default: fresh ones, service-keys.ts). */
  keys?: ServiceKeys;
  /** The operator API's token (default: a fresh one). */
  adminToken?: string;
  /** Hears a process that exited without being asked to (`npm start` then stops the rest). */
  onUnexpectedExit?: (process: ManagedProcess, code: number | null) => void;
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
  /** The env every gateway and worker got besides their keys (DATABASE_URL, REDIS_URL, upstreams …). */
  serviceEnv: Record<string, string>;
  /** The keys each service got on top of `serviceEnv`. */
  keys: ServiceKeys;
  processes(): ManagedProcess[];
  stop(): Promise<void>;
}

/** What the `deployed` profile sets unless the caller's options say otherwise. */
const DEPLOYED_DEFAULTS = {
  service: {
    NODE_ENV: 'production',
    LOG_LEVEL: 'info',
    // The sandbox's demo checkouts run on this machine's own names; a proof is checked when sent, not required.
    TON_PROOF_REQUIRED: 'false',
    TON_PROOF_DOMAINS: 'localhost,127.0.0.1',
  },
  sandbox: { SANDBOX_DATA_DIR: 'memory' },
} as const;

export async function startStack(options: StackOptions): Promise<Stack> {
  const from = options.from ?? 'build';
  if (options.logDir) mkdirSync(options.logDir, { recursive: true });
  const baseEnv = options.baseEnv ?? { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/root' };
  const profile = options.profile ?? (from === 'build' ? 'deployed' : 'development');
  const defaults = profile === 'deployed' ? DEPLOYED_DEFAULTS : { service: {}, sandbox: {} };
  const keys = options.keys ?? generatedServiceKeys();

  const nodeProcess = (
    name: string,
    kind: ServiceKind,
    env: Record<string, string>,
    readyUrl: string | undefined,
    withheld: readonly string[] = [],
  ): ManagedProcess => {
    const processEnv: NodeJS.ProcessEnv = { ...baseEnv, ...env };
    for (const variable of withheld) delete processEnv[variable];
    if (from === 'build') {
      const nodeOptions = withHeapFlags(kind, processEnv.NODE_OPTIONS);
      if (nodeOptions) processEnv.NODE_OPTIONS = nodeOptions;
    }
    const managed: ManagedProcess = new ManagedProcess({
      name,
      kind,
      command: process.execPath,
      args: from === 'build' ? [freshBundle(kind)] : ['--import', 'tsx', SOURCE_ENTRYPOINTS[kind]],
      env: processEnv,
      cwd: REPO_ROOT,
      ...(options.logDir ? { logFile: path.join(options.logDir, `${name}.log`) } : {}),
      ...(readyUrl ? { readyUrl } : {}),
      // tsx compiles each entry on its first start.
      ...(from === 'source' ? { readyTimeoutMs: 180_000 } : {}),
      onExit: ({ code, expected }) => {
        if (!expected) options.onUnexpectedExit?.(managed, code);
      },
    });
    return managed;
  };

  const withSandbox = options.sandbox !== false;
  const sandboxPort = options.ports?.sandbox ?? (await freePort());
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const sandbox = nodeProcess(
    'sandbox',
    'sandbox',
    { SANDBOX_PORT: String(sandboxPort), ...defaults.sandbox, ...options.sandboxEnv },
    `${sandboxUrl}/demo`,
  );
  const started: ManagedProcess[] = [];
  const stopAll = async (): Promise<void> => {
    await Promise.all(started.filter((p) => p.kind !== 'sandbox').map((p) => p.stop()));
    await sandbox.stop();
  };

  try {
    let demo: SandboxDemo = {};
    if (withSandbox) {
      started.push(sandbox);
      await sandbox.start();
      demo = (await (await fetch(`${sandboxUrl}/demo`)).json()) as SandboxDemo;
    }
    const adminToken = options.adminToken ?? `chaos-admin-${randomBytes(16).toString('hex')}`;
    const bullmqPrefix =
      options.bullmqPrefix === null ? undefined : (options.bullmqPrefix ?? `stack-${randomBytes(4).toString('hex')}`);
    const serviceEnv: Record<string, string> = {
      ...defaults.service,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
      ...(options.redisUrl ? { REDIS_URL: options.redisUrl } : {}),
      ...(bullmqPrefix ? { BULLMQ_PREFIX: bullmqPrefix } : {}),
      STARSGATE_ADMIN_TOKENS: adminToken,
      // The runs' webhook receivers listen on this machine's loopback, as `npm start`'s may.
      WEBHOOK_ALLOW_PRIVATE: 'loopback',
      ...(withSandbox ? upstreamEnv(sandboxUrl, demo) : {}),
      ...options.serviceEnv,
    };

    const gatewayUrls: string[] = [];
    const adminUrls: string[] = [];
    const gateways: ManagedProcess[] = [];
    for (let i = 1; i <= (options.gateways ?? 2); i++) {
      const [port, adminPort] = [
        options.ports?.gateway ?? (await freePort()),
        options.ports?.admin ?? (await freePort()),
      ];
      const url = `http://127.0.0.1:${port}`;
      gatewayUrls.push(url);
      adminUrls.push(`http://127.0.0.1:${adminPort}`);
      gateways.push(
        nodeProcess(
          `gateway-${i}`,
          'gateway',
          {
            ...serviceEnv,
            ...keys.gateway,
            HOST: '127.0.0.1',
            PORT: String(port),
            ADMIN_PORT: String(adminPort),
            ...options.gatewayEnv,
          },
          `${url}/readyz`,
          keys.withheldFromGateway,
        ),
      );
    }
    const workerMetricsUrls: string[] = [];
    const workers: ManagedProcess[] = [];
    for (let i = 1; i <= (options.workers ?? 3); i++) {
      const port = options.ports?.workerMetrics ?? (await freePort());
      const url = `http://127.0.0.1:${port}`;
      workerMetricsUrls.push(url);
      const env = {
        ...serviceEnv,
        ...keys.worker,
        WORKER_METRICS_HOST: '127.0.0.1',
        WORKER_METRICS_PORT: String(port),
        ...options.workerEnv,
      };
      // A worker whose metrics listener is off has no /readyz to wait for.
      workers.push(
        nodeProcess(`worker-${i}`, 'worker', env, env.WORKER_METRICS_PORT === '0' ? undefined : `${url}/readyz`),
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
      keys,
      processes: () => [...(withSandbox ? [sandbox] : []), ...gateways, ...workers],
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
