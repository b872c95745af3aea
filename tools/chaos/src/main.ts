/**
 * `npm run chaos`: the whole service under everything at once. Starts its own PostgreSQL cluster,
 * Redis and the stack (2 gateways behind a round-robin proxy, 3 workers, the sandbox with realistic
 * latency and ~5 % upstream faults) from the built artifacts; drives purchases and client-signed
 * checkouts as a well-behaved order system while killing, flushing, restarting and pausing at
 * seeded random moments; then checks the outcome from the database, the chain and the simulator
 * and prints one table. Exit code 1 on any violation. docs/reports/chaos.md explains it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { readToncenterTraffic, REPO_ROOT } from '@starsgate/stack';
import { ChainAccess } from './chain-access';
import { checkChainPayments } from './checks/chain-payments';
import { checkDeliveries } from './checks/deliveries';
import { checkRows } from './checks/rows';
import { checkSeedLeaks } from './checks/seed-leaks';
import { checkWebhooks } from './checks/webhooks';
import { driveCheckouts } from './checkout-driver';
import { startEnvironment } from './environment';
import { planFaults, runFaults } from './fault-scheduler';
import { HttpClient } from './http-client';
import { Ledger } from './ledger';
import { parseOptions } from './options';
import { PayerWallet } from './payer-wallet';
import { drivePurchases } from './purchase-driver';
import { SeededRandom } from './random';
import { buildRows, renderTable } from './report';
import { openRowCount, waitSettled } from './settle';
import { StatusPoller } from './status-poller';
import { clearUpstreamFaults, readStrictFlowRejections } from './upstream-realism';
import { WebhookReceiver } from './webhook-receiver';
import { createTestWallets } from './wallets';

const began = Date.now();
const log = (line: string): void => {
  process.stdout.write(`[chaos +${Math.round((Date.now() - began) / 1000)} s] ${line}\n`);
};

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  options.logDir ||= path.join(REPO_ROOT, '.data', 'chaos', new Date().toISOString().replace(/[:.]/g, '-'));
  mkdirSync(options.logDir, { recursive: true });
  log(
    `seed ${options.seed}: ${options.purchases} purchases, ${options.checkouts} checkouts over ${options.minutes} min, ` +
      `${options.gateways} gateways, ${options.workers} workers; logs in ${options.logDir}`,
  );
  const random = new SeededRandom(options.seed);
  const env = await startEnvironment(options, log);
  const { stack } = env;
  const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 4 });
  pool.on('error', () => undefined); // connections cut by the PostgreSQL restart
  const receiver = await WebhookReceiver.start();
  try {
    const admin = await fetch(`${stack.adminUrl}/admin/api/webhook-endpoints`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.adminToken}`,
        'content-type': 'application/json',
        'starsgate-operator': 'chaos',
      },
      body: JSON.stringify({ url: receiver.url, description: 'chaos run receiver' }),
    });
    if (admin.status !== 201) throw new Error(`webhook endpoint: HTTP ${admin.status} ${await admin.text()}`);
    receiver.secret = String(((await admin.json()) as { secret: string }).secret);

    const toncenter = new HttpClient(`${stack.sandboxUrl}/toncenter`, random.fork('toncenter'), {
      timeoutMs: 15_000,
      maxTries: 30,
      retryInternalError: false,
    });
    const chain = new ChainAccess(toncenter, stack.sandboxUrl);
    const wallets = await createTestWallets(options.seed, chain, { gram: '20000', usdt: '20000' });
    // At most about four checkouts a payer: each may hold OPEN_CHECKOUTS_PER_PAYER (5) open at once.
    const payerCount = Math.min(20, Math.max(3, Math.ceil(options.checkouts / 4)));
    const payers = await Promise.all(
      Array.from({ length: payerCount }, (_, i) =>
        PayerWallet.create(options.seed, i, { version: i % 3 === 0 ? 'V4R2' : 'V5R1', deploy: i % 3 !== 2 }, chain),
      ),
    );
    log(
      `${wallets.length} purchase wallets (${wallets.map((w) => w.id).join(', ')}) and ${payers.length} checkout payers funded`,
    );

    const clients = {
      'POST /purchases': new HttpClient(stack.url, random.fork('purchases')),
      'checkouts (create, submit, read)': new HttpClient(stack.url, random.fork('checkouts')),
      'GET status polls': new HttpClient(stack.url, random.fork('polls')),
      'payer wallets → toncenter': toncenter,
    };
    const ledger = new Ledger();
    const poller = new StatusPoller(clients['GET status polls']);
    poller.start();
    const driveMs = options.minutes * 60_000;
    const faultPlan = planFaults(random.fork('faults'), driveMs, options.kills);
    const progress = setInterval(() => {
      openRowCount(pool).then(
        (open) =>
          log(
            `accepted ${ledger.purchases.size} purchases, ${ledger.checkouts.size} checkouts; open ${JSON.stringify(open)}`,
          ),
        () => log('progress: database unavailable'),
      );
    }, 30_000);
    const driveStarted = Date.now();
    const [faults] = await Promise.all([
      runFaults(faultPlan, { stack, redis: env.redis, postgres: env.postgres }, random.fork('victims'), log),
      drivePurchases({
        client: clients['POST /purchases'],
        poller,
        ledger,
        wallets,
        random: random.fork('orders'),
        runSeed: options.seed,
        count: options.purchases,
        durationMs: driveMs * 0.9,
      }),
      driveCheckouts({
        client: clients['checkouts (create, submit, read)'],
        chain,
        poller,
        ledger,
        payers,
        random: random.fork('checkout-orders'),
        runSeed: options.seed,
        count: options.checkouts,
        durationMs: driveMs * 0.85,
      }),
    ]);
    const driveSeconds = Math.round((Date.now() - driveStarted) / 1000);
    clearInterval(progress);
    log(`drive done in ${driveSeconds} s; waiting up to ${options.settleMinutes} min for final statuses`);
    const settled = await waitSettled(pool, Date.now() + options.settleMinutes * 60_000, log);
    await poller.stop();
    const toncenterTraffic = await readToncenterTraffic(stack.sandboxUrl);
    const interleaved = await readStrictFlowRejections(stack.sandboxUrl);
    log(`Fragment refused ${interleaved} inits of interleaved flows (strictFlow, docs/fragment-protocol.md §20.1)`);
    await clearUpstreamFaults(stack.sandboxUrl);

    log('checking: webhooks, chain, Fragment deliveries, rows');
    const webhooks = await checkWebhooks(pool, receiver, 180_000);
    const chainReport = await checkChainPayments(stack.sandboxUrl, pool);
    const deliveries = await checkDeliveries(stack.sandboxUrl, pool);
    const rows = await checkRows(pool, ledger);
    const processes = [...stack.processes(), env.redis.process];
    await stack.stop();
    log('checking: seeds in logs, Redis and the database');
    const leaks = await checkSeedLeaks({ wallets, logDir: options.logDir, redisUrl: env.redis.url, pool });

    const { rows: table, violations } = buildRows({
      clients,
      ledger,
      faults,
      processes,
      rows,
      settled,
      chain: chainReport,
      deliveries,
      leaks,
      webhooks,
      toncenter: toncenterTraffic,
      seconds: { drive: driveSeconds, total: Math.round((Date.now() - began) / 1000) },
    });
    const rendered = renderTable(table);
    writeFileSync(path.join(options.logDir, 'report.md'), `${rendered}\n`);
    process.stdout.write(`\n${rendered}\n\n`);
    if (violations.length > 0) {
      process.stdout.write(`${violations.length} violation(s):\n${violations.map((v) => `  - ${v}`).join('\n')}\n`);
      const details = {
        lost: rows.lost,
        stuck: rows.stuck,
        chain: chainReport,
        deliveries,
        leaks: leaks.leaks,
        webhooks,
      };
      writeFileSync(path.join(options.logDir, 'violations.json'), JSON.stringify(details, null, 2));
    } else process.stdout.write('no violation\n');
    return violations.length > 0 ? 1 : 0;
  } finally {
    await receiver.close();
    await pool.end().catch(() => undefined);
    await env.close(options.keep).catch((error: unknown) => log(`shutdown: ${String(error)}`));
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`[chaos] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);
