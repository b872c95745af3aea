/**
 * npm run soak -- --minutes N [--rate R]: the built stack (sandbox, gateway, worker, each its own
 * process, started by @starsgate/stack) on a fresh database and a Redis server of its own, under a
 * steady mixed load for N minutes; every minute each process's memory, event-loop delay and CPU,
 * PostgreSQL connections, Redis memory, throughput and backlog; at the end the slopes, the verdict
 * and the hard checks. Exit 1 on a hard failure (docs/reports/soak.md).
 */
import { mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { ToncenterChainClient } from '@starsgate/ton';
import {
  freePort,
  readToncenterTraffic,
  RedisServer,
  REPO_ROOT,
  runToncenterEnv,
  runToncenterRateLimit,
  RUN_TONCENTER_TIER,
  startStack,
  type Stack,
} from '@starsgate/stack';
import { checkAcceptedRows } from './checks/accepted-rows';
import { CheckoutWallet } from './checkout-wallet';
import { readDemoWallets } from './demo-info';
import { Faucet } from './faucet';
import { fixed } from './format';
import { GatewayClient } from './http-client';
import { LoadDriver } from './load-driver';
import type { MinuteRecord, ReportedProcess } from './minute-record';
import { formatMinute } from './minute-report';
import { parseSoakOptions } from './options';
import { preparePayerWallets } from './payer-wallets';
import { createRunDatabase, type RunDatabase } from './run-database';
import { statusCounts } from './samplers/backlog';
import { postgresConnections } from './samplers/postgres-connections';
import { ProcessSampler } from './samplers/process-sample';
import { ReferenceProcess } from './samplers/reference-process';
import { redisMemory } from './samplers/redis-memory';
import { outcomesOf, summaryLines } from './summary';
import { judge } from './verdict';
import { SoakWebhookReceiver } from './webhook-receiver';

const FRESH_PAYERS = 6;
const CHECKOUT_WALLETS = { V5R1: 10, V4R2: 4 };
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const say = (text: string) => process.stdout.write(`${text}\n`);
const loadText = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

interface Run {
  database?: RunDatabase;
  redisServer?: RedisServer;
  redis?: Redis;
  stack?: Stack;
  receiver?: SoakWebhookReceiver;
  reference?: ReferenceProcess;
}

async function teardown(run: Run, keepDatabase: boolean): Promise<void> {
  await run.stack?.stop().catch((error: unknown) => say(`stopping the stack: ${String(error)}`));
  await run.receiver?.close().catch(() => undefined);
  run.reference?.stop();
  run.redis?.disconnect();
  await run.redisServer?.stop().catch(() => undefined);
  if (!run.database) return;
  if (keepDatabase) {
    await run.database.client.end().catch(() => undefined);
    say(`database kept: ${run.database.url}`);
  } else await run.database.drop().catch((error: unknown) => say(`dropping the database: ${String(error)}`));
}

async function main(): Promise<number> {
  const options = parseSoakOptions(process.argv.slice(2));
  const run: Run = {};
  let interrupted = false;
  process.once('SIGINT', () => {
    interrupted = true;
    say('interrupted: stopping');
  });
  const logDir = path.join(REPO_ROOT, '.data/soak', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(logDir, { recursive: true });
  say(
    `soak: ${options.minutes} min at ${options.rate} new orders/s (${Math.round(options.checkoutShare * 100)} % checkouts), ` +
      `${options.gateways} gateway(s), ${options.workers} worker(s), warm-up ${options.warmupMinutes} min, drain ≤ ${options.drainSeconds} s`,
  );
  say(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${fixed(totalmem() / 2 ** 30)} GiB, node ${process.version}, ` +
      `load average ${loadText()}; logs in ${path.relative(REPO_ROOT, logDir)}/`,
  );
  try {
    run.database = await createRunDatabase();
    run.redisServer = new RedisServer(await freePort(), path.join(logDir, 'redis.log'), REPO_ROOT);
    await run.redisServer.start();
    run.redis = new Redis(run.redisServer.url, { maxRetriesPerRequest: 2 });
    const stack = await startStack({
      logDir,
      databaseUrl: run.database.url,
      redisUrl: run.redisServer.url,
      gateways: options.gateways,
      workers: options.workers,
      proxy: options.gateways > 1,
      bullmqPrefix: 'soak',
      // toncenter as a keyed plan's limit enforces it (tools/stack/src/toncenter-tier.ts).
      // strictFlow: Fragment refuses an init of interleaved flows (docs/fragment-protocol.md §20.1).
      sandboxEnv: {
        SANDBOX_FAULTS: JSON.stringify({ rateLimit: runToncenterRateLimit }),
        SANDBOX_FRAGMENT_CONFIG: JSON.stringify({ faults: { strictFlow: true } }),
      },
      // One driver stands for many order systems: the per-client limit would throttle it alone.
      serviceEnv: {
        RATE_LIMIT_MAX: '1000000',
        OPEN_ORDERS_PER_PAYER: '10000000',
        OPEN_ORDERS_TOTAL: '10000000',
        ...runToncenterEnv(),
      },
    });
    run.stack = stack;
    say(
      `stack up: gateway ${stack.url}, sandbox ${stack.sandboxUrl}, database ${run.database.name}, redis ${run.redisServer.url}`,
    );

    const client = new GatewayClient(stack.url, stack.adminUrl, stack.adminToken);
    const receiver = await SoakWebhookReceiver.start();
    run.receiver = receiver;
    const endpoint = await client.call<{ secret: string }>('admin webhooks', 'POST', '/admin/api/webhook-endpoints', {
      admin: true,
      body: { url: receiver.url, description: 'soak receiver' },
      expected: [201],
    });
    if (!endpoint) throw new Error(`could not create the webhook endpoint: ${client.errorSamples.join('; ')}`);
    receiver.secret = endpoint.body.secret;

    const faucet = new Faucet(stack.sandboxUrl);
    const chain = new ToncenterChainClient({ baseUrl: `${stack.sandboxUrl}/toncenter` });
    const payers = await preparePayerWallets(await readDemoWallets(stack.sandboxUrl), faucet, FRESH_PAYERS);
    const checkoutWallets = await Promise.all([
      ...Array.from({ length: CHECKOUT_WALLETS.V5R1 }, () => CheckoutWallet.create('V5R1', chain, faucet)),
      ...Array.from({ length: CHECKOUT_WALLETS.V4R2 }, () => CheckoutWallet.create('V4R2', chain, faucet)),
    ]);
    say(
      `wallets: ${payers.length} payers (${payers.map((p) => p.label).join(', ')}), ${checkoutWallets.length} checkout buyers`,
    );

    const reported: ReportedProcess[] = stack
      .processes()
      .map((entry) => ({ name: entry.name, kind: entry.kind as ReportedProcess['kind'] }));
    const metricsUrl = (name: string, kind: ReportedProcess['kind']): string => {
      if (kind === 'sandbox') return `${stack.sandboxUrl}/metrics`;
      const index = Number(name.split('-')[1]) - 1;
      return kind === 'gateway' ? `${stack.adminUrls[index]}/metrics` : `${stack.workerMetricsUrls[index]}/metrics`;
    };
    const samplers = new Map(
      stack.processes().map((entry) => {
        const kind = entry.kind as ReportedProcess['kind'];
        return [entry.name, new ProcessSampler(entry.pid!, metricsUrl(entry.name, kind))] as const;
      }),
    );
    const redisSampler = new ProcessSampler(run.redisServer.process.pid!, null);
    const reference = ReferenceProcess.start();
    run.reference = reference;
    // Starts each event-loop window and CPU clock at the start of the load.
    await Promise.all([...[...samplers.values(), redisSampler].map((sampler) => sampler.sample()), reference.sample()]);

    const driver = new LoadDriver(client, payers, checkoutWallets, options);
    const records: MinuteRecord[] = [];
    let lastDeliveries = 0;
    let lastSampleAt = performance.now();
    const died = () =>
      [...stack.processes(), run.redisServer!.process]
        .filter((entry) => entry.unexpectedExits > 0 || !entry.running)
        .map((entry) => `${entry.name} exited`);

    const sampleMinute = async (minute: number, phase: MinuteRecord['phase']): Promise<void> => {
      const names = [...samplers.keys()];
      const [processSamples, referenceDelay, redisServer, redis, postgres, backlog] = await Promise.all([
        Promise.all(names.map((name) => samplers.get(name)!.sample())),
        reference.sample(),
        redisSampler.sample(),
        redisMemory(run.redis!),
        postgresConnections(run.database!.client, run.database!.name),
        statusCounts(run.database!.client),
      ]);
      const record: MinuteRecord = {
        minute,
        phase,
        seconds: (performance.now() - lastSampleAt) / 1000,
        loadAverage: loadavg(),
        processes: Object.fromEntries(names.map((name, i) => [name, processSamples[i]!])),
        reference: referenceDelay,
        redisServer: { rssMb: redisServer.rssMb, cpuPercent: redisServer.cpuPercent },
        redis,
        postgres,
        backlog,
        driver: driver.takeMinute(),
        calls: client.takeMinute(),
        webhookDeliveries: receiver.deliveries - lastDeliveries,
      };
      lastDeliveries = receiver.deliveries;
      lastSampleAt = performance.now();
      records.push(record);
      say(formatMinute(record, reported, options.minutes));
    };

    /** Waits until `until` (performance.now()), or less when a process dies, the run is interrupted or `done`. */
    const waitUntil = async (until: number, done: () => Promise<boolean> = () => Promise.resolve(false)) => {
      while (performance.now() < until) {
        if (died().length > 0 || interrupted || (await done())) return;
        await sleep(Math.min(1_000, until - performance.now()));
      }
    };

    const started = performance.now();
    driver.start();
    for (let minute = 1; minute <= options.minutes; minute += 1) {
      await waitUntil(started + minute * 60_000);
      if (died().length > 0 || interrupted) break;
      await sampleMinute(minute, 'load');
    }
    driver.stopArrivals();

    // Drain: every accepted order final, in the database and at the webhook receiver.
    const drainDeadline = performance.now() + options.drainSeconds * 1000;
    const drained = async () =>
      driver.open.size === 0 &&
      (await statusCounts(run.database!.client)).open === 0 &&
      driver.finished.every((order) => receiver.received(order.id, order.kind, order.status));
    let drainMinute = records.length;
    while (died().length === 0 && !interrupted && !(await drained()) && performance.now() < drainDeadline) {
      await waitUntil(Math.min(drainDeadline, performance.now() + 60_000), drained);
      drainMinute += 1;
      await sampleMinute(drainMinute, 'drain');
    }

    const hard: string[] = [...died()];
    if (interrupted) hard.push('interrupted');
    say('\n══ summary');
    for (const line of summaryLines(driver, client, receiver, (performance.now() - started) / 60_000)) say(line);
    const toncenter = await readToncenterTraffic(stack.sandboxUrl);
    say(
      `toncenter (${RUN_TONCENTER_TIER.rps} rps keyed limit enforced): service requests ${toncenter.service.requests} ` +
        `(${driver.accepted.length > 0 ? (toncenter.service.requests / driver.accepted.length).toFixed(1) : '—'} per accepted order), ` +
        `429s from the limit ${toncenter.service.rateLimited} (target 0)`,
    );
    const verdict = judge(records, reported, options.warmupMinutes, options.rate);
    for (const line of verdict.lines) say(line);

    if (client.totalErrors > 0)
      hard.push(`${client.totalErrors} request error(s), the first: ${client.errorSamples.slice(0, 5).join(' | ')}`);
    if (!(await drained())) {
      const database = (await statusCounts(run.database.client)).byStatus;
      const unheard = driver.finished.filter((order) => !receiver.received(order.id, order.kind, order.status));
      hard.push(
        `not every order finished within the ${options.drainSeconds} s drain: ${driver.open.size} open at the driver, ` +
          `database ${JSON.stringify(database)}, ${unheard.length} final webhook event(s) not received`,
      );
    }
    const unexpected = [...outcomesOf(driver.finished)].filter(([key]) => key !== 'completed');
    if (unexpected.length > 0)
      hard.push(`orders that did not complete: ${unexpected.map(([key, n]) => `${key} ${n}`).join(', ')}`);
    if (receiver.badSignatures > 0) hard.push(`${receiver.badSignatures} webhook post(s) with a bad signature`);
    hard.push(...(await checkAcceptedRows(run.database.client, driver.accepted)));
    hard.push(...verdict.failures);

    say(hard.length === 0 ? 'result: PASS' : `result: FAIL\n${hard.map((line) => `  - ${line}`).join('\n')}`);
    say(`load average at the end ${loadText()}`);
    return hard.length === 0 ? 0 : 1;
  } finally {
    await teardown(run, options.keepDatabase);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`soak: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
