/**
 * The whole product from source, as `npm start` runs it, for the SDKs' integration tests: the
 * sandbox (local chain + Fragment simulator), the gateway and the worker as child processes on free
 * ports, over a fresh migrated database and a fresh BullMQ prefix. The TypeScript test imports
 * `startStack`; the Python tests run `stack-cli.ts`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '@starsgate/db/testing';
import { freePort, waitForHttp } from '@starsgate/platform/testing';

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

interface DemoInfo {
  wallets: DemoWalletInfo[];
  usdt: { master: string };
  fragment: { cookies: string; receivingAddresses: Record<string, string> };
}

export async function startStack(): Promise<Stack> {
  const database = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'starsgate-sdk-'));
  // The gateway's operator listener (ADMIN_PORT) gets a free port too: stacks run side by side.
  const [sandboxPort, gatewayPort, adminPort] = [await freePort(), await freePort(), await freePort()];
  const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const children: ChildProcess[] = [];
  const outputs = { sandbox: '', gateway: '', worker: '' };

  const run = (name: keyof typeof outputs, entry: string, env: Record<string, string>): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      outputs[name] = (outputs[name] + chunk.toString('utf8')).slice(-2_000_000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    children.push(child);
    return child;
  };
  const alive = (child: ChildProcess) => () => child.exitCode === null && child.signalCode === null;
  const exited = (child: ChildProcess) => () => (alive(child)() ? undefined : 'the process behind it exited');

  const close = async (): Promise<void> => {
    await Promise.all(
      children.map(async (child) => {
        if (!alive(child)()) return;
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        const forced = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(forced);
      }),
    );
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const sandbox = run('sandbox', 'apps/sandbox/src/main.ts', {
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_DATA_DIR: 'memory',
      SANDBOX_SEED: `sdk-${randomBytes(3).toString('hex')}`,
      SANDBOX_BLOCK_MS: '200',
      SANDBOX_PRICE_DRIFT: 'off',
    });
    const demo = (await (
      await waitForHttp(`${sandboxUrl}/demo`, { timeoutMs: 180_000, gaveUp: exited(sandbox) })
    ).json()) as DemoInfo;
    const common = {
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL ?? `${process.env.TEST_REDIS_BASE ?? 'redis://127.0.0.1:6379'}/0`,
      BULLMQ_PREFIX: `sdk-${randomBytes(4).toString('hex')}`,
      STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}`,
      STARSGATE_DATA_DIR: dataDir,
      TONCENTER_URL: `${sandboxUrl}/toncenter`,
      // The sandbox's toncenter has no request limit.
      TONCENTER_RPS: '0',
      FRAGMENT_BASE_URL: `${sandboxUrl}/fragment`,
      FRAGMENT_COOKIES: demo.fragment.cookies,
      USDT_MASTER_ADDRESS: demo.usdt.master,
      FRAGMENT_RECEIVING_ADDRESSES: Object.values(demo.fragment.receivingAddresses).join(','),
    };
    const gateway = run('gateway', 'apps/gateway/src/main.ts', {
      ...common,
      PORT: String(gatewayPort),
      ADMIN_PORT: String(adminPort),
      HOST: '127.0.0.1',
      RATE_LIMIT_MAX: '100000',
    });
    const worker = run('worker', 'apps/worker/src/main.ts', {
      ...common,
      POLL_INTERVAL_MS: '250',
      SWEEP_INTERVAL_MS: '1000',
    });
    await waitForHttp(`${gatewayUrl}/readyz`, {
      timeoutMs: 120_000,
      gaveUp: () => exited(gateway)() ?? exited(worker)(),
    });
    return { gatewayUrl, sandboxUrl, wallets: demo.wallets, output: (name) => outputs[name], close };
  } catch (error) {
    await close();
    throw new Error(`${(error as Error).message}\n${Object.values(outputs).join('\n').slice(-5_000)}`, {
      cause: error,
    });
  }
}
