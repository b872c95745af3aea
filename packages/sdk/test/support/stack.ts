/**
 * The whole product as `npm start -- --from=build` runs it (the services' bundles, rebuilt first
 * when stale, with development settings), for the SDKs' integration tests: the
 * sandbox (local chain + Fragment simulator), the gateway and the worker as child processes on free
 * ports, started by the repository's one stack launcher (`@starsgate/stack`, run as its CLI
 * `@starsgate/stack/cli`), over a fresh migrated database and a fresh BullMQ prefix. The
 * TypeScript test imports `startStack`; the Python tests run `stack-cli.ts`.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { createTestDatabase } from '@starsgate/db/testing';
import { FAST_FRAGMENT_TIMINGS } from '@starsgate/sandbox/fragment';

const ROOT = path.resolve(__dirname, '../../../..');

export interface DemoWalletInfo {
  id: string;
  format: string;
  seed: string;
  accountIndex: number;
  address: string;
  version: string;
}

export interface Stack {
  gatewayUrl: string;
  sandboxUrl: string;
  wallets: DemoWalletInfo[];
  /** What one process printed (stdout and stderr). The sandbox prints its demo seeds by design. */
  output(process: 'sandbox' | 'gateway' | 'worker'): string;
  close(): Promise<void>;
}

/** Each process's log file, by the launcher's process names. */
const LOG_FILES = { sandbox: 'sandbox.log', gateway: 'gateway-1.log', worker: 'worker-1.log' } as const;

export async function startStack(): Promise<Stack> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'starsgate-sdk-'));
  const logDir = path.join(dataDir, 'logs');
  const output = (name: keyof typeof LOG_FILES): string => {
    try {
      return readFileSync(path.join(logDir, LOG_FILES[name]), 'utf8').slice(-2_000_000);
    } catch {
      return '';
    }
  };
  const cleanUp = async (): Promise<void> => {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  const options = {
    from: 'build',
    profile: 'development',
    logDir,
    baseEnv: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', STARSGATE_DATA_DIR: dataDir },
    databaseUrl: database.url,
    redisUrl: process.env.REDIS_URL ?? `${process.env.TEST_REDIS_BASE ?? 'redis://127.0.0.1:6379'}/0`,
    bullmqPrefix: `sdk-${randomBytes(4).toString('hex')}`,
    gateways: 1,
    workers: 1,
    proxy: false,
    sandboxEnv: {
      SANDBOX_DATA_DIR: 'memory',
      SANDBOX_SEED: `sdk-${randomBytes(3).toString('hex')}`,
      SANDBOX_BLOCK_MS: '200',
      SANDBOX_PRICE_DRIFT: 'off',
      SANDBOX_FRAGMENT_CONFIG: JSON.stringify(FAST_FRAGMENT_TIMINGS),
    },
    gatewayEnv: { RATE_LIMIT_MAX: '100000' },
    workerEnv: { POLL_INTERVAL_MS: '250', SWEEP_INTERVAL_MS: '1000' },
  };
  const launcherCli = require.resolve('@starsgate/stack/cli');
  const launcher = spawn(process.execPath, ['--import', 'tsx', launcherCli, JSON.stringify(options)], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let launcherErrors = '';
  launcher.stderr.on('data', (chunk: Buffer) => {
    launcherErrors = (launcherErrors + chunk.toString('utf8')).slice(-5_000);
  });
  const exited = once(launcher, 'exit');
  const stopLauncher = async (): Promise<void> => {
    if (launcher.exitCode !== null || launcher.signalCode !== null) return;
    launcher.stdin.end();
    const forced = setTimeout(() => launcher.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(forced);
  };

  try {
    const [line] = (await Promise.race([
      once(createInterface({ input: launcher.stdout }), 'line'),
      exited.then(() => {
        throw new Error(`the stack launcher exited: ${launcherErrors}`);
      }),
    ])) as [string];
    const stack = JSON.parse(line) as { url: string; sandboxUrl: string; demo: { wallets: DemoWalletInfo[] } };
    return {
      gatewayUrl: stack.url,
      sandboxUrl: stack.sandboxUrl,
      wallets: stack.demo.wallets,
      output,
      close: async () => {
        await stopLauncher();
        await cleanUp();
      },
    };
  } catch (error) {
    const printed = Object.keys(LOG_FILES)
      .map((name) => output(name as keyof typeof LOG_FILES))
      .join('\n')
      .slice(-5_000);
    await stopLauncher();
    await cleanUp();
    throw new Error(`${(error as Error).message}\n${printed}`, { cause: error });
  }
}
