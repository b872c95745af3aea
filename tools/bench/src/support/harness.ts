/**
 * Shared by the bench scripts: the real gateway in-process on a fresh database, a bare Express 5
 * app to compare against, and an autocannon runner that refuses to report a run with failures.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { FingerprintKeys, generateRingEntry, parseKeyRing, parseSealKey, sealKeyOf } from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { createLogger } from '@starsgate/platform';
import { ToncenterChainClient } from '@starsgate/ton';
import { createGateway, loadGatewayConfig, type Gateway, type GatewayDeps } from '@starsgate/gateway';

import { execFile } from 'node:child_process';
import path from 'node:path';
import type { Result as AutocannonResult } from 'autocannon';

export const DURATION = Number(process.env.BENCH_DURATION_SECONDS ?? 5);

export function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    );
  });
}

/**
 * Runs a load generator of this folder (`autocannon-runner.ts`, `open-loop-runner.ts`) in its own
 * process, so it does not share an event loop with the servers it measures (with two cores, one
 * each): options as JSON in argv, the result as JSON on stdout.
 */
export function runLoadGenerator<T>(script: string, options: object): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, script), JSON.stringify(options)],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${script} failed: ${stderr || error.message}`)) : resolve(JSON.parse(stdout) as T),
    );
  });
}

function autocannon(options: Record<string, unknown>): Promise<AutocannonResult> {
  return runLoadGenerator<AutocannonResult>('autocannon-runner.ts', options);
}

export async function measure(label: string, options: Record<string, unknown>): Promise<AutocannonResult> {
  const result = await autocannon({ duration: DURATION, ...options });
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(
      `${label}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts — the bench measured failures`,
    );
  }
  process.stdout.write(
    `  ${label.padEnd(44)} ${Math.round(result.requests.average).toString().padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(3)} ms   p99 ${String(result.latency.p99).padStart(4)} ms\n`,
  );
  return result;
}

export function ratioLine(label: string, ours: AutocannonResult, bare: AutocannonResult, target: number): string {
  const ratio = ours.requests.average / bare.requests.average;
  const verdict = ratio >= target ? 'meets' : 'MISSES';
  return `  ${label.padEnd(44)} ${(ratio * 100).toFixed(1).padStart(5)} % of bare (target ≥ ${Math.round(target * 100)} %: ${verdict})`;
}

/** The minimal Express 5 app the gateway is compared with: parse JSON, answer JSON. */
export function bareExpressApp(): express.Express {
  const app = express();
  app.use(express.json());
  app.get('/bare', (_req, res) => {
    res.json({ ok: true });
  });
  app.post('/bare', (req: express.Request<unknown, unknown, Record<string, unknown> | undefined>, res) => {
    res.status(202).json({ received: Object.keys(req.body ?? {}).length });
  });
  return app;
}

export interface BenchGateway {
  gateway: Gateway;
  database: TestDatabase;
  /** The gateway's purchase queue (the floor server enqueues on it too). */
  queue: GatewayDeps['queue'];
  url: string;
  close(): Promise<void>;
}

/** The real gateway (Redis rate limiter, validation, PostgreSQL, BullMQ) on a fresh database. */
export async function startBenchGateway(env: Record<string, string> = {}): Promise<BenchGateway> {
  const database = await createTestDatabase();
  const config = loadGatewayConfig({
    ...process.env,
    DATABASE_URL: database.url,
    RATE_LIMIT_MAX: '1000000',
    OPEN_ORDERS_PER_PAYER: '10000000',
    OPEN_ORDERS_TOTAL: '10000000',
    KEY_DERIVATIONS_PER_MINUTE: '1000000',
    LOG_LEVEL: 'warn',
    ...env,
    BULLMQ_PREFIX: `bench-${randomBytes(4).toString('hex')}`,
  });
  const gateway = createGateway(config, {
    logger: createLogger({ service: 'gateway', level: 'warn' }),
    database,
    sealer: parseSealKey(sealKeyOf(parseKeyRing(generateRingEntry('b1')))),
    fingerprints: new FingerprintKeys(`f1:${randomBytes(32).toString('base64')}`),
    chain: new ToncenterChainClient({ baseUrl: config.toncenter.url }),
    redisKeyPrefix: `bench-${randomBytes(4).toString('hex')}`,
  });
  const { queue } = gateway.deps;
  const { server, url } = await listen(gateway.app);
  return {
    gateway,
    database,
    queue,
    url,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await queue.obliterate({ force: true });
      await gateway.close();
      await database.drop();
    },
  };
}
