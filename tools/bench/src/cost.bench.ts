/**
 * npm run bench:cost — what the service costs the machine it runs on, from the built bundles
 * (`npm run build` first) as the images run them: one gateway and one worker process, the sandbox
 * in a third at a lower CPU priority (it stands for Fragment and the chain, which take none of the
 * service's CPU), real PostgreSQL and Redis.
 *   1. Start-up: from spawn to the first 2xx of /readyz, for each bundle, BENCH_COST_STARTS (3)
 *      times (the median is reported). Target: each under 2 s.
 *   2. Idle memory: resident set of the gateway and the worker after BENCH_COST_IDLE_SECONDS (10).
 *   3. A paced pipeline run: BENCH_COST_N (100) purchases at BENCH_COST_RATE (5) per second over
 *      BENCH_COST_WALLETS (10) funded wallets, posted to the gateway over HTTP and followed in
 *      PostgreSQL until every one is final, with Fragment's delivery as BENCH_COST_DELIVERY says:
 *      `real` (the default: 30–60 s after payment, as Fragment's own, docs/fragment-protocol.md
 *      §17.5), `fast` (a fraction of a second, the bench's setting before issue 37) or `both` (real
 *      then fast, each on a stack and database of its own, and the ratio real / fast printed:
 *      target ≤ 1.2×, waiting must cost next to nothing). CPU time (user + system, /proc) of the
 *      gateway, the worker, the PostgreSQL backends of the gateway's and the worker's connections to
 *      this run's database, and Redis from the first POST to the last completion, divided by the
 *      purchases completed. Target: ≤ 10 ms of CPU per purchase in all. The whole PostgreSQL
 *      cluster's CPU (other databases, background writers, the bench's own polling) is printed
 *      beside it, not counted. Resident memory sampled every 500 ms meanwhile. Target: each process
 *      under 150 MB under load. Beside CPU: the rows written per purchase, per table
 *      (pg_stat_user_tables deltas, support/table-writes.ts), and the BullMQ jobs added per purchase,
 *      per queue (the `added` events of each queue's event stream, support/job-events.ts).
 * Redis is the one REDIS_URL names: other work on it counts too, so give the bench its own.
 * BENCH_JSON_OUT=<file> also writes the figures as JSON. BENCH_COST_PROFILE=1 starts the gateway and
 * the worker of the first variant with --cpu-prof, prints the top self-time functions and packages
 * of each, and writes flame graphs of the paced run and of each start-up into docs/benchmarks/
 * (BENCH_COST_CHART_DIR): the profiler's own cost is then in the CPU figures. The .cpuprofile files
 * stay in the run's log folder; tools/bench/src/profile-summary.ts summarises any of them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '@starsgate/db/testing';
import { createWalletContract, deriveKeyPair } from '@starsgate/ton';
import { ManagedProcess, sleep, startStack } from '@starsgate/stack';
import { writeBenchJson, type BenchRun, type BenchTarget } from './support/bench-json';
import { SANDBOX_NICENESS } from './support/remote-sandbox';
import {
  DatabaseBackendCpu,
  postmasterPid,
  processCpuMs,
  processTreeCpuMs,
  redisServerPid,
  residentMb,
} from './support/proc-usage';
import {
  monotonicMicros,
  profilingOptions,
  renderProcessProfile,
  type ProcessProfileRecord,
} from './support/process-profiles';
import type { SampleWindow } from './report/flamegraph';
import { tableWrites, totalWrites, writesBetween, type WritesByTable } from './support/table-writes';
import { eventTotal, JobEventCounter } from './support/job-events';

const N = Number(process.env.BENCH_COST_N ?? 100);
const RATE = Number(process.env.BENCH_COST_RATE ?? 5);
const WALLETS = Number(process.env.BENCH_COST_WALLETS ?? 10);
const STARTS = Number(process.env.BENCH_COST_STARTS ?? 3);
const IDLE_SECONDS = Number(process.env.BENCH_COST_IDLE_SECONDS ?? 10);
const SETTLE_SECONDS = Number(process.env.BENCH_COST_SETTLE_SECONDS ?? 300);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/0';
const PROFILE = process.env.BENCH_COST_PROFILE === '1';
const ROOT = path.resolve(__dirname, '../../..');
const CHART_DIR = path.resolve(process.env.BENCH_COST_CHART_DIR ?? path.join(ROOT, 'docs/benchmarks'));
const SERVICE_APPLICATIONS = ['starsgate-gateway', 'starsgate-worker'];

const TARGETS = { cpuMsPerPurchase: 10, residentMb: 150, readySeconds: 2, realOverFast: 1.2 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

interface ReadyProbe {
  seconds: number;
  /** CPU (user + system) the process spent from spawn to ready: steadier than wall time on a busy machine. */
  cpuSeconds: number;
  pid: number;
  window: SampleWindow;
}

/** Spawn to the first 2xx of its ready URL, polled every 10 ms (the stack's own wait polls every 200 ms). */
async function timeToReady(process: ManagedProcess): Promise<ReadyProbe> {
  const { readyUrl, ...spec } = process.spec;
  await process.stop();
  const probe = new ManagedProcess(spec);
  const from = monotonicMicros();
  const started = performance.now();
  await probe.start();
  for (;;) {
    if (!probe.running) throw new Error(`${spec.name} exited during start-up`);
    try {
      const response = await fetch(readyUrl!, { signal: AbortSignal.timeout(1_000) });
      await response.body?.cancel();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - started > 60_000) throw new Error(`${spec.name} not ready within 60 s`);
    await sleep(10);
  }
  const seconds = (performance.now() - started) / 1000;
  const window = { fromMicros: from, toMicros: monotonicMicros() };
  const pid = probe.pid!;
  const cpuSeconds = processCpuMs(pid) / 1000;
  await probe.stop();
  await process.start();
  return { seconds, cpuSeconds, pid, window };
}

async function fundedWallets(sandboxUrl: string, count: number): Promise<string[]> {
  const seeds: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const seed = randomBytes(32).toString('base64');
    const keys = await deriveKeyPair(seed, 'base64_key');
    keys.secretKey.fill(0);
    const address = createWalletContract('V5R1', keys.publicKey, 'mainnet').address.toString();
    const response = await fetch(`${sandboxUrl}/faucet`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ address, gram: '100000', usdt: '1000000' }),
    });
    if (!response.ok) throw new Error(`faucet: ${response.status} ${await response.text()}`);
    seeds.push(seed);
  }
  return seeds;
}

interface CpuSnapshot {
  gateway: number;
  worker: number;
  postgres: number;
  redis: number;
}

type Pids = { gateway: number; worker: number; postmaster: number; redis: number };

function cpuNow(pids: Pids, backends: DatabaseBackendCpu): CpuSnapshot {
  return {
    gateway: processCpuMs(pids.gateway),
    worker: processCpuMs(pids.worker),
    postgres: backends.usedMs(),
    redis: processCpuMs(pids.redis),
  };
}

async function statusCounts(database: Awaited<ReturnType<typeof createTestDatabase>>) {
  const { rows } = await database.pool.query<{ status: string; count: number }>(
    'SELECT status, count(*)::int AS count FROM purchases GROUP BY status',
  );
  return Object.fromEntries(rows.map((row) => [row.status, row.count])) as Record<string, number>;
}

type Delivery = 'real' | 'fast';

/**
 * Fragment's delays in the simulator. `real`: a delivery 30–60 s after payment as Fragment's own
 * (docs/fragment-protocol.md §17.5), pages and API calls at 150–350 ms, 2–5 s to start processing;
 * `fast`: the same steps cut to a fraction of a second, what the bench ran before issue 37.
 */
const DELIVERY_TIMINGS: Record<Delivery, object> = {
  real: {
    latency: { minMs: 150, maxMs: 350 },
    processingDelay: { minMs: 2_000, maxMs: 5_000 },
    doneDelay: { minMs: 30_000, maxMs: 60_000 },
  },
  fast: {
    latency: { minMs: 20, maxMs: 40 },
    processingDelay: { minMs: 100, maxMs: 200 },
    doneDelay: { minMs: 200, maxMs: 400 },
  },
};

function deliveries(): Delivery[] {
  const setting = process.env.BENCH_COST_DELIVERY ?? 'real';
  if (setting === 'both') return ['real', 'fast'];
  if (setting === 'real' || setting === 'fast') return [setting];
  throw new Error(`BENCH_COST_DELIVERY must be real, fast or both, not ${setting}`);
}

/** BENCH_COST_NODE_OPTIONS: Node flags for the gateway and the worker on top of the profiler's (for trying heap sizes). */
function serviceNodeOptions(profiler: string): Record<string, string> {
  const flags = [profiler, process.env.BENCH_COST_NODE_OPTIONS ?? ''].filter(Boolean).join(' ');
  return flags ? { NODE_OPTIONS: flags } : {};
}

interface PacedResult {
  delivery: Delivery;
  completed: number;
  seconds: number;
  counts: Record<string, number>;
  perPurchase: CpuSnapshot;
  total: number;
  clusterMs: number;
  idle: { gateway: number; worker: number };
  load: Record<'gateway' | 'worker', { max: number; mean: number }>;
  writes: WritesByTable;
  jobs: Record<string, Record<string, number>>;
  rowUpdatesPerPurchase: number;
  rowWritesPerPurchase: number;
  jobsPerPurchase: number;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const variants = deliveries();
  process.stdout.write(
    `bench:cost — Node ${process.version}, built bundles, 1 gateway + 1 worker, sandbox at nice ${SANDBOX_NICENESS}, Fragment's delivery ${variants.join(' then ')}\n`,
  );
  const results: PacedResult[] = [];
  let footprint: Footprint | undefined;
  const profiles: ProcessProfileRecord[] = [];
  for (const [index, delivery] of variants.entries()) {
    const outcome = await runVariant(startedAt, delivery, { startUps: index === 0, profile: PROFILE && index === 0 });
    results.push(outcome.paced);
    footprint ??= outcome.footprint;
    profiles.push(...outcome.profiles);
  }
  const primary = results[0]!;
  const ready = footprint!.ready;
  const readyCpu = footprint!.readyCpu;

  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  const real = results.find((r) => r.delivery === 'real');
  const fast = results.find((r) => r.delivery === 'fast');
  if (real && fast) {
    process.stdout.write(
      `\n  real / fast delivery (target: CPU within 1.2×): CPU ${ratio(real.total, fast.total).toFixed(2)}× (${real.total.toFixed(2)} / ${fast.total.toFixed(2)} ms), ` +
        `row updates ${ratio(real.rowUpdatesPerPurchase, fast.rowUpdatesPerPurchase).toFixed(2)}× (${real.rowUpdatesPerPurchase.toFixed(1)} / ${fast.rowUpdatesPerPurchase.toFixed(1)}), ` +
        `jobs ${ratio(real.jobsPerPurchase, fast.jobsPerPurchase).toFixed(2)}× (${real.jobsPerPurchase.toFixed(1)} / ${fast.jobsPerPurchase.toFixed(1)}), ` +
        `worker RSS max ${real.load.worker.max.toFixed(0)} / ${fast.load.worker.max.toFixed(0)} MB\n`,
    );
  }

  const targets: BenchTarget[] = [
    ...results.map<BenchTarget>((result) => ({
      name: `CPU per purchase, gateway + worker + PostgreSQL + Redis (paced run${result.delivery === 'fast' ? ', fast delivery' : ''})`,
      target: `≤ ${TARGETS.cpuMsPerPurchase} ms`,
      value: `${result.total.toFixed(2)} ms`,
      met: result.total <= TARGETS.cpuMsPerPurchase && result.completed === N,
    })),
    ...(real && fast
      ? [
          {
            name: 'CPU per purchase, real delivery / fast delivery',
            target: `≤ ${TARGETS.realOverFast}×`,
            value: `${ratio(real.total, fast.total).toFixed(2)}×`,
            met: ratio(real.total, fast.total) <= TARGETS.realOverFast,
          },
        ]
      : []),
    ...(['gateway', 'worker'] as const).flatMap<BenchTarget>((name) => [
      {
        name: `${name} resident memory under load (max)`,
        target: `< ${TARGETS.residentMb} MB`,
        value: `${primary.load[name].max.toFixed(0)} MB`,
        met: primary.load[name].max < TARGETS.residentMb,
      },
      {
        name: `${name} start to /readyz (median of ${STARTS})`,
        target: `< ${TARGETS.readySeconds} s`,
        value: `${median(ready[name]).toFixed(2)} s`,
        met: median(ready[name]) < TARGETS.readySeconds,
      },
    ]),
  ];
  process.stdout.write('\n');
  for (const target of targets)
    process.stdout.write(
      `  ${target.name}: ${target.value} (target ${target.target}: ${target.met ? 'meets' : 'MISSES'})\n`,
    );

  const runs: BenchRun[] = [
    ...results.map<BenchRun>((result) => ({
      group: result.delivery === 'real' ? 'paced pipeline' : 'paced pipeline, fast delivery',
      subject: 'cpu per purchase',
      delivery: result.delivery,
      purchases: N,
      completed: result.completed,
      seconds: result.seconds,
      cpuMsPerPurchase: { ...result.perPurchase, total: result.total },
      statuses: result.counts,
      rowUpdatesPerPurchase: result.rowUpdatesPerPurchase,
      rowWritesPerPurchase: result.rowWritesPerPurchase,
      jobsPerPurchase: result.jobsPerPurchase,
      tableWrites: result.writes,
      jobEvents: result.jobs,
      residentMb: { idle: result.idle, load: result.load },
    })),
    ...(['gateway', 'worker'] as const).map<BenchRun>((name) => ({
      group: 'footprint',
      subject: name,
      readySeconds: ready[name],
      readyCpuSeconds: readyCpu[name],
      idleResidentMb: primary.idle[name],
      loadResidentMb: primary.load[name],
    })),
  ];
  const written = writeBenchJson({
    bench: 'cost',
    startedAt,
    settings: {
      purchases: N,
      ratePerSecond: RATE,
      wallets: WALLETS,
      starts: STARTS,
      idleSeconds: IDLE_SECONDS,
      profiled: PROFILE,
      delivery: variants.join(','),
      deliveryTimings: Object.fromEntries(variants.map((v) => [v, DELIVERY_TIMINGS[v]])),
    },
    runs,
    targets,
    extra: { postgresClusterMsPerPurchase: primary.clusterMs / Math.max(primary.completed, 1), profiles },
  });
  if (written) process.stdout.write(`  JSON written to ${written}\n`);
}

interface Footprint {
  ready: Record<'gateway' | 'worker', number[]>;
  readyCpu: Record<'gateway' | 'worker', number[]>;
}

async function runVariant(
  startedAt: string,
  delivery: Delivery,
  options: { startUps: boolean; profile: boolean },
): Promise<{ paced: PacedResult; footprint?: Footprint; profiles: ProcessProfileRecord[] }> {
  const database = await createTestDatabase();
  const logDir = mkdtempSync(path.join(tmpdir(), 'bench-cost-'));
  const stack = await startStack({
    logDir,
    databaseUrl: database.url,
    redisUrl: REDIS_URL,
    gateways: 1,
    workers: 1,
    proxy: false,
    sandboxEnv: {
      SANDBOX_SEED: `bench-cost-${randomBytes(3).toString('hex')}`,
      SANDBOX_BLOCK_MS: '400',
      SANDBOX_PRICE_DRIFT: 'off',
      SANDBOX_FRAGMENT_CONFIG: JSON.stringify(DELIVERY_TIMINGS[delivery]),
    },
    serviceEnv: {
      LOG_LEVEL: 'warn',
      // BENCH_COST_SERVICE_ENV: JSON of more variables for both services (e.g. MALLOC_ARENA_MAX, or
      // NODE_ENV=development to take heap snapshots, which production refuses).
      ...(JSON.parse(process.env.BENCH_COST_SERVICE_ENV ?? '{}') as Record<string, string>),
      RATE_LIMIT_MAX: '1000000',
      ...serviceNodeOptions(options.profile ? profilingOptions(path.join(logDir, 'profiles')).NODE_OPTIONS : ''),
    },
  });
  const profiles: ProcessProfileRecord[] = [];
  let stopped = false;
  try {
    if (SANDBOX_NICENESS !== 0) setPriority(stack.sandbox.pid!, SANDBOX_NICENESS);
    const gateway = stack.gateways[0]!;
    const worker = stack.workers[0]!;
    process.stdout.write(
      `\n  ${delivery} delivery: ${JSON.stringify(DELIVERY_TIMINGS[delivery])} (logs in ${logDir})\n`,
    );

    let footprint: Footprint | undefined;
    const lastStart: Partial<Record<'gateway' | 'worker', ReadyProbe>> = {};
    if (options.startUps) {
      footprint = { ready: { gateway: [], worker: [] }, readyCpu: { gateway: [], worker: [] } };
      for (let i = 0; i < STARTS; i += 1) {
        for (const [name, managed] of [
          ['gateway', gateway],
          ['worker', worker],
        ] as const) {
          const probe = await timeToReady(managed);
          footprint.ready[name].push(probe.seconds);
          footprint.readyCpu[name].push(probe.cpuSeconds);
          lastStart[name] = probe;
        }
      }
      for (const [name, values] of Object.entries(footprint.ready))
        process.stdout.write(
          `  start → /readyz  ${name.padEnd(8)} ${values.map((v) => v.toFixed(2)).join(' s, ')} s (median ${median(values).toFixed(2)} s; CPU ${median(footprint.readyCpu[name as 'gateway' | 'worker']).toFixed(2)} s)\n`,
        );
    }

    await sleep(IDLE_SECONDS * 1000);
    const idle = { gateway: residentMb(gateway.pid!), worker: residentMb(worker.pid!) };
    process.stdout.write(
      `  idle resident memory: gateway ${idle.gateway.toFixed(0)} MB, worker ${idle.worker.toFixed(0)} MB\n`,
    );

    const seeds = await fundedWallets(stack.sandboxUrl, WALLETS);
    const pids: Pids = {
      gateway: gateway.pid!,
      worker: worker.pid!,
      postmaster: await postmasterPid(database.url),
      redis: await redisServerPid(REDIS_URL),
    };
    const memory = { gateway: [] as number[], worker: [] as number[] };
    const sampler = setInterval(() => {
      memory.gateway.push(residentMb(pids.gateway));
      memory.worker.push(residentMb(pids.worker));
    }, 500);

    const writesBefore = await tableWrites(database.url);
    const jobCounter = await JobEventCounter.start(REDIS_URL, stack.serviceEnv.BULLMQ_PREFIX!);
    const backends = await DatabaseBackendCpu.start(database.url, SERVICE_APPLICATIONS);
    const backendSampler = setInterval(() => void backends.sample().catch(() => undefined), 250);
    const clusterBefore = processTreeCpuMs(pids.postmaster);
    const before = cpuNow(pids, backends);
    const runFrom = monotonicMicros();
    const started = performance.now();
    const posts: Array<Promise<void>> = [];
    for (let i = 0; i < N; i += 1) {
      const due = started + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      posts.push(
        fetch(`${stack.url}/api/v1/purchases`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            product: 'stars',
            username: '@alice',
            amount: 50 + (i % 100),
            payment_method: 'gram',
            seed: seeds[i % seeds.length],
            idempotency_key: `cost-${startedAt}-${delivery}-${i}`,
          }),
        }).then(async (response) => {
          if (response.status !== 202) throw new Error(`POST answered ${response.status}: ${await response.text()}`);
        }),
      );
    }
    await Promise.all(posts);
    let counts: Record<string, number> = {};
    for (;;) {
      counts = await statusCounts(database);
      const final = (counts.completed ?? 0) + (counts.failed ?? 0) + (counts.reconciliation_required ?? 0);
      if (final >= N) break;
      if (performance.now() - started > (N / RATE + SETTLE_SECONDS) * 1000) break;
      await sleep(250);
    }
    clearInterval(backendSampler);
    await backends.sample();
    const after = cpuNow(pids, backends);
    const clusterMs = processTreeCpuMs(pids.postmaster) - clusterBefore;
    const runWindow = { fromMicros: runFrom, toMicros: monotonicMicros() };
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    await backends.stop();
    const jobs = await jobCounter.stop();

    const completed = counts.completed ?? 0;
    const perPurchase = Object.fromEntries(
      (Object.keys(before) as Array<keyof CpuSnapshot>).map((name) => [
        name,
        (after[name] - before[name]) / Math.max(completed, 1),
      ]),
    ) as unknown as CpuSnapshot;
    const total = perPurchase.gateway + perPurchase.worker + perPurchase.postgres + perPurchase.redis;
    const load = {
      gateway: { max: Math.max(...memory.gateway), mean: mean(memory.gateway) },
      worker: { max: Math.max(...memory.worker), mean: mean(memory.worker) },
    };

    // A profile is written when its process exits, and a backend's last row counts when it closes.
    await stack.stop();
    stopped = true;
    const writes = writesBetween(writesBefore, await tableWrites(database.url));
    const written = totalWrites(writes);
    const perCompleted = (value: number) => value / Math.max(completed, 1);
    const paced: PacedResult = {
      delivery,
      completed,
      seconds,
      counts,
      perPurchase,
      total,
      clusterMs,
      idle,
      load,
      writes,
      jobs,
      rowUpdatesPerPurchase: perCompleted(written.updated),
      rowWritesPerPurchase: perCompleted(written.inserted + written.updated + written.deleted),
      jobsPerPurchase: perCompleted(eventTotal(jobs, 'added')),
    };

    process.stdout.write(
      `  paced run: ${N} purchases at ${RATE}/s, ${completed} completed in ${seconds.toFixed(1)} s (statuses ${JSON.stringify(counts)})\n`,
    );
    process.stdout.write(
      `  CPU per completed purchase: gateway ${perPurchase.gateway.toFixed(2)} ms, worker ${perPurchase.worker.toFixed(2)} ms, PostgreSQL ${perPurchase.postgres.toFixed(2)} ms, Redis ${perPurchase.redis.toFixed(2)} ms = ${total.toFixed(2)} ms in all\n`,
    );
    process.stdout.write(
      `  PostgreSQL cluster-wide (every database, background writers, the bench's polling; not counted): ${perCompleted(clusterMs).toFixed(2)} ms per purchase\n`,
    );
    process.stdout.write(
      `  resident memory under load (max / mean): gateway ${load.gateway.max.toFixed(0)} / ${load.gateway.mean.toFixed(0)} MB, worker ${load.worker.max.toFixed(0)} / ${load.worker.mean.toFixed(0)} MB\n`,
    );
    process.stdout.write(
      `  rows per purchase: ${paced.rowUpdatesPerPurchase.toFixed(2)} updated (${perCompleted(written.hotUpdated).toFixed(2)} HOT), ${perCompleted(written.inserted).toFixed(2)} inserted, ${perCompleted(written.deleted).toFixed(2)} deleted\n`,
    );
    for (const [table, w] of Object.entries(writes))
      process.stdout.write(
        `    ${table.padEnd(28)} updated ${perCompleted(w.updated).toFixed(2).padStart(7)} (HOT ${perCompleted(w.hotUpdated).toFixed(2)}), inserted ${perCompleted(w.inserted).toFixed(2)}, deleted ${perCompleted(w.deleted).toFixed(2)}\n`,
      );
    process.stdout.write(`  BullMQ jobs added per purchase: ${paced.jobsPerPurchase.toFixed(2)}\n`);
    for (const [queue, events] of Object.entries(jobs))
      process.stdout.write(
        `    ${queue.padEnd(28)} ${Object.entries(events)
          .sort((a, b) => b[1] - a[1])
          .map(([event, count]) => `${event} ${perCompleted(count).toFixed(2)}`)
          .join(', ')}\n`,
      );

    if (options.profile) {
      const dir = path.join(logDir, 'profiles');
      const pacedRun = `paced run, ${N} purchases at ${RATE}/s, ${delivery} delivery`;
      for (const [name, pid] of [
        ['gateway', pids.gateway],
        ['worker', pids.worker],
      ] as const) {
        const pacedProfile = renderProcessProfile({
          dir,
          pid,
          window: runWindow,
          process: name,
          phase: pacedRun,
          title: `${name} CPU profile: ${pacedRun} (Node ${process.version})`,
          chartDir: CHART_DIR,
          name: `cost-${name}-paced`,
          root: ROOT,
        });
        const start = lastStart[name];
        const startUp = start
          ? renderProcessProfile({
              dir,
              pid: start.pid,
              window: start.window,
              process: name,
              phase: 'spawn → /readyz',
              title: `${name} CPU profile: spawn → /readyz (Node ${process.version})`,
              chartDir: CHART_DIR,
              name: `cost-${name}-start`,
              root: ROOT,
            })
          : undefined;
        for (const record of [pacedProfile, startUp]) {
          if (!record) continue;
          profiles.push(record);
          process.stdout.write(
            `\n  ${record.process}, ${record.phase}: busy ${record.busyMs.toFixed(0)} ms, top self time:\n${record.top
              .slice(0, 10)
              .map((row) => `    ${(row.selfMicros / 1000).toFixed(1).padStart(8)} ms  ${row.name}  ${row.location}`)
              .join('\n')}\n  by package:\n${record.packages
              .slice(0, 8)
              .map((row) => `    ${(row.selfMicros / 1000).toFixed(1).padStart(8)} ms  ${row.owner}`)
              .join('\n')}\n`,
          );
        }
      }
      process.stdout.write(`  profiles in ${dir} (tsx tools/bench/src/profile-summary.ts <file> reads one)\n`);
    }
    return { paced, footprint, profiles };
  } finally {
    if (!stopped) await stack.stop();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
