/**
 * npm run bench:pipeline — the purchase pipeline end to end on the sandbox (400 ms blocks, Fragment
 * simulator with injected latency, BENCH_FRAGMENT_SESSIONS (8) login sessions of one account) in
 * a child process at a lower CPU priority (BENCH_SANDBOX_NICE, default 10; 0 for equal), as remote
 * upstreams would be, taking none of the service's CPU; real PostgreSQL and Redis; the worker in
 * this process, so its CPU is the service's own:
 *   1. BENCH_N (500) purchases over BENCH_WALLETS (10) funded wallets arriving from 8 concurrent
 *      clients while the worker runs, batching on: purchases/s,
 *      p50/p95 from acceptance (202) to completed, and the service's own time: inside worker jobs
 *      minus time awaiting the chain/Fragment (block waits and poll delays fall between jobs or in
 *      a step's waits for a due outcome, and are excluded; so is waiting for an answer another job
 *      asked for), summed per purchase over all its jobs (polls included) and per job, with each
 *      step's PostgreSQL statements and their time. A batch
 *      is charged to the purchase whose job signed it, and its settlement (recording the payment,
 *      checking delivery) to the purchase whose job settled it, so the total is exact but the
 *      spread between purchases is wide. Under this burst the worker's event loop is busy, so own
 *      time includes queueing behind other purchases' work.
 *   2. The same run with batching off (BATCH_MAX=1), and the ratio.
 *   3. Paced: BENCH_PACED_N (100) purchases arriving at BENCH_PACED_RATE (5) per second, below
 *      capacity: the own time each purchase costs when nothing queues.
 *   4. One wallet, BENCH_SINGLE_N (200) purchases all queued before the worker takes jobs,
 *      batching on vs off; the clock starts once the worker is connected and its Fragment
 *      sessions warm (as a running worker's are), and stops at the last completion recorded.
 *      Own time is not measured here (BENCH_SINGLE_OWN=1 does): its instrumentation costs the
 *      worker CPU on every promise.
 * BENCH_SEED_FORMAT=ton_24 pays from 24-word wallets (100 000 PBKDF2 iterations per key
 * derivation) instead of Base64 keys.
 * BENCH_RUNS picks parts (streaming = 1–2, paced = 3, single = 4); BENCH_SKIP_OFF=1 skips the
 * batching-off runs (steps 2 and 4's second half); BENCH_TIMELINE=1 prints when
 * purchases passed each audit milestone; BENCH_SANDBOX_NODE_ARGS passes flags (e.g. --cpu-prof)
 * to the sandbox process; BENCH_JSON_OUT writes the result as JSON (bench/support/bench-json.ts).
 * Targets: overhead p50 < 50 ms; step 4 ≥ 20× faster with batching.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { FragmentSessionPool } from '@starsgate/fragment';
import { mnemonicNew } from '@ton/crypto';
import { createWalletContract, deriveKeyPair } from '@starsgate/ton';
import { createPurchaseProcessor, sharedCallObserver } from '@starsgate/worker';
import { WorkerHarness } from '@starsgate/worker/testing';
import { SANDBOX_NICENESS, startRemoteSandbox } from './support/remote-sandbox';
import { writeBenchJson, type BenchRun, type BenchTarget } from './support/bench-json';

type RemoteSandbox = Awaited<ReturnType<typeof startRemoteSandbox>>;

const N = Number(process.env.BENCH_N ?? 500);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 10);
const SINGLE_N = Number(process.env.BENCH_SINGLE_N ?? 200);
const SESSIONS = Number(process.env.BENCH_FRAGMENT_SESSIONS ?? 8);
const PACED_N = Number(process.env.BENCH_PACED_N ?? 100);
const PACED_RATE = Number(process.env.BENCH_PACED_RATE ?? 5);
/** `base64_key` (one ed25519 key from 32 bytes) or `ton_24` (100 000 PBKDF2 iterations per derivation). */
const SEED_FORMAT = process.env.BENCH_SEED_FORMAT === 'ton_24' ? 'ton_24' : 'base64_key';

interface RunResult {
  label: string;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  overheadP50: number;
  overheadP95: number;
  jobOwnP50: number;
  jobs: number;
  failed: number;
  /** Signed externals the purchases were paid with. */
  externals: number;
  /** Own time per job by the step it ran. */
  steps: string;
  measuredOwnTime: boolean;
  /** Share of the run the worker's event loop was busy, and the process's CPU time. */
  eventLoopBusy: number;
  cpuSeconds: number;
}

/** Per job: time with at least one upstream call in flight (overlapping calls count once). */
interface UpstreamClock {
  inFlight: number;
  since: number;
  upstreamMs: number;
  /** The status the job found its purchase in (its step). */
  step?: string;
  /** Of the own time: waiting for a pooled PostgreSQL connection, and statements in flight. */
  pgWaitMs: number;
  pgMs: number;
  pgCount: number;
}

const als = new AsyncLocalStorage<UpstreamClock>();

/** Adds the time of every awaited call on `target` to the current job's upstream time. */
function timed<T extends object>(target: T): T {
  return new Proxy(target, {
    get(t, property, receiver) {
      const value = Reflect.get(t, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const clock = als.getStore();
        if (clock && clock.inFlight++ === 0) clock.since = performance.now();
        const settle = () => {
          if (clock && --clock.inFlight === 0) clock.upstreamMs += performance.now() - clock.since;
        };
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(t, args);
        } catch (error) {
          settle();
          throw error;
        }
        if (!(result instanceof Promise)) {
          settle();
          return result;
        }
        return result.finally(settle);
      };
    },
  });
}

type Callback = (...args: unknown[]) => void;
const countedPools = new WeakSet<object>();

/**
 * Splits out own time's PostgreSQL part: statements through the pool (`query`: wait for a pooled
 * connection, then the round trip), and of that the wait. Attributed to the job that issued the
 * call, captured when called: pg-pool runs a waiting caller's callback from whichever job
 * released the connection. Patches the pool class once.
 */
function countPostgres(pool: object): void {
  const proto = Object.getPrototypeOf(pool) as { query: Callback; connect: Callback };
  if (countedPools.has(proto)) return;
  countedPools.add(proto);
  const track = (field: 'pgMs' | 'pgWaitMs', args: unknown[], call: (args: unknown[]) => unknown) => {
    const clock = als.getStore();
    if (!clock) return call(args);
    const started = performance.now();
    const done = () => {
      clock[field] += performance.now() - started;
      if (field === 'pgMs') clock.pgCount += 1;
    };
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      return call([
        ...args.slice(0, -1),
        (...results: unknown[]) => {
          done();
          (last as Callback)(...results);
        },
      ]);
    }
    const result = call(args);
    if (result instanceof Promise) return result.finally(done);
    done();
    return result;
  };
  const { query, connect } = proto;
  proto.query = function (this: unknown, ...args: unknown[]) {
    return track('pgMs', args, (a) => query.apply(this, a));
  };
  proto.connect = function (this: unknown, ...args: unknown[]) {
    return track('pgWaitMs', args, (a) => connect.apply(this, a));
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

/** Funded V5R1 wallets, with seeds of BENCH_SEED_FORMAT: its key derivation is part of each batch's cost. */
async function fundedSeeds(sandbox: RemoteSandbox, count: number): Promise<Array<{ seed: string; address: string }>> {
  const wallets: Array<{ seed: string; address: string }> = [];
  for (let i = 0; i < count; i += 1) {
    const seed = SEED_FORMAT === 'ton_24' ? (await mnemonicNew(24)).join(' ') : randomBytes(32).toString('base64');
    const keys = await deriveKeyPair(seed, SEED_FORMAT);
    keys.secretKey.fill(0);
    const contract = createWalletContract('V5R1', keys.publicKey, 'mainnet');
    await sandbox.fund(contract.address, '100000', '1000000');
    wallets.push({ seed, address: contract.address.toString() });
  }
  return wallets;
}

/**
 * `measureOwnTime` wraps every upstream call and runs each job in an AsyncLocalStorage context,
 * which costs the worker CPU on every promise: only the runs that report own time pay for it.
 */
type Arrival = 'streaming' | 'queued-first' | { perSecond: number };

async function run(
  label: string,
  total: number,
  walletCount: number,
  batchMax: number,
  arrival: Arrival,
  measureOwnTime: boolean,
): Promise<RunResult> {
  const seed = `bench-${randomBytes(3).toString('hex')}`;
  const sandbox = await startRemoteSandbox({
    seed,
    blockMs: 400,
    fragment: {
      latency: { minMs: 20, maxMs: 40 },
      processingDelay: { minMs: 100, maxMs: 200 },
      doneDelay: { minMs: 200, maxMs: 400 },
      validitySeconds: 300,
    },
  });
  const h = await WorkerHarness.start({
    upstream: sandbox,
    seed,
    worker: false,
    fragmentSessions: SESSIONS,
    env: {
      BATCH_MAX: String(batchMax),
      POLL_INTERVAL_MS: '300',
      WALLET_BUSY_RETRY_MS: '15000',
      CONFIRMING_MAX_AGE_MS: '900000',
      WAITING_TO_SEND_MAX_AGE_MS: '1800000',
      LEASE_MS: '30000',
      JOB_LOCK_MS: '30000',
      SWEEP_INTERVAL_MS: '5000',
    },
  });
  try {
    if (measureOwnTime) {
      countPostgres(h.database.pool);
      h.deps.chain = timed(h.deps.chain);
      h.deps.fragment = new FragmentSessionPool(h.deps.fragment.clients.map(timed));
      // A step's in-job waits (for a landing or deliveries that are due) are upstream time too.
      const waits = timed({ sleep: h.deps.sleep });
      const joinedWaits = timed({ wait: <T>(result: Promise<T>) => result });
      h.deps.sleep = (ms) => waits.sleep(ms);
      // A job that joins an upstream call another job started (sharedCall) waits for upstream too.
      const upstreamScopes = new Set<object>([h.deps.chain, h.deps.fragment, ...h.deps.fragment.clients]);
      sharedCallObserver.joined = (scope, result) => (upstreamScopes.has(scope) ? joinedWaits.wait(result) : result);
      const claim = h.deps.transitions.claim.bind(h.deps.transitions);
      h.deps.transitions.claim = async (...args) => {
        const claimed = await claim(...args);
        const clock = als.getStore();
        if (claimed?.claimed && clock) clock.step = claimed.row.status;
        return claimed;
      };
    }
    const byStep = new Map<string, { own: number[]; pg: number[]; pgWait: number[]; statements: number }>();
    const overhead = new Map<string, number>();
    const jobOwn: number[] = [];
    const inner = createPurchaseProcessor(h.deps);
    const startWorker = (paused = false) =>
      h.startWorker(
        64,
        !measureOwnTime
          ? inner
          : async (job) => {
              const store: UpstreamClock = { inFlight: 0, since: 0, upstreamMs: 0, pgWaitMs: 0, pgMs: 0, pgCount: 0 };
              const started = performance.now();
              await als.run(store, () => inner(job));
              const own = performance.now() - started - store.upstreamMs;
              overhead.set(job.data.purchaseId, (overhead.get(job.data.purchaseId) ?? 0) + own);
              jobOwn.push(own);
              const step = byStep.get(store.step ?? 'not claimed') ?? { own: [], pg: [], pgWait: [], statements: 0 };
              step.own.push(own);
              step.pg.push(store.pgMs);
              step.pgWait.push(store.pgWaitMs);
              step.statements += store.pgCount;
              byStep.set(store.step ?? 'not claimed', step);
            },
        { paused },
      );
    const seeds = await fundedSeeds(sandbox, walletCount);
    const ids: string[] = new Array<string>(total);
    const create = async (i: number) => {
      ids[i] = (
        await h.createPurchase({
          product: 'stars',
          amount: 50 + (i % 500),
          payment_method: 'gram',
          username: '@alice',
          seed: seeds[i % seeds.length]!.seed,
          // A 24-word seed names its wallet version by its address; a Base64 key resolves to V5R1 alone.
          ...(SEED_FORMAT === 'ton_24' ? { wallet_address: seeds[i % seeds.length]!.address } : {}),
        })
      ).id;
    };
    let started = performance.now();
    let loopAtStart = performance.eventLoopUtilization();
    let cpuAtStart = process.cpuUsage();
    if (arrival === 'queued-first') {
      // "N queued purchases": all accepted and queued before the worker takes jobs.
      for (let i = 0; i < total; i += 1) await create(i);
      startWorker(true);
      await h.runWorker();
      started = performance.now();
      loopAtStart = performance.eventLoopUtilization();
      cpuAtStart = process.cpuUsage();
    } else if (typeof arrival === 'object') {
      // A steady flow below capacity: what each purchase costs the service when nothing queues.
      startWorker();
      const created: Array<Promise<void>> = [];
      for (let i = 0; i < total; i += 1) {
        created.push(create(i));
        await new Promise((resolve) => setTimeout(resolve, 1000 / arrival.perSecond));
      }
      await Promise.all(created);
    } else {
      // Orders arrive while the worker runs, as from the gateway: 8 concurrent clients.
      startWorker();
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < total) await create(next++);
        }),
      );
    }
    const rows = await h.waitForAll(ids, 1_800_000);
    const eventLoopBusy = performance.eventLoopUtilization(loopAtStart).utilization;
    const cpu = process.cpuUsage(cpuAtStart);
    const clockStart = performance.timeOrigin + started;
    // From the rows, not from when the poll above noticed: it looks every 200 ms.
    const seconds = (Math.max(...rows.map((r) => (r.completedAt ?? r.updatedAt).getTime())) - clockStart) / 1000;
    await h.stopWorker();
    if (process.env.BENCH_TIMELINE === '1') await printTimeline(h, clockStart);
    const latencies = rows
      .filter((r) => r.status === 'completed')
      .map((r) => r.completedAt!.getTime() - Math.max(r.createdAt.getTime(), clockStart));
    const own = ids.map((id) => overhead.get(id) ?? 0);
    return {
      label,
      seconds,
      perSecond: total / seconds,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      overheadP50: percentile(own, 50),
      overheadP95: percentile(own, 95),
      jobOwnP50: percentile(jobOwn, 50),
      jobs: jobOwn.length,
      failed: rows.filter((r) => r.status !== 'completed').length,
      externals: new Set(rows.map((r) => r.normalizedHash)).size,
      measuredOwnTime: measureOwnTime,
      eventLoopBusy,
      cpuSeconds: (cpu.user + cpu.system) / 1e6,
      steps: [...byStep]
        .map(
          ([step, t]) =>
            `${step} ${t.own.length}× p50 ${percentile(t.own, 50).toFixed(1)} ms (PostgreSQL ${(t.statements / t.own.length).toFixed(1)} statements, p50 ${percentile(t.pg, 50).toFixed(1)} ms incl. pool wait p50 ${percentile(t.pgWait, 50).toFixed(1)} ms)`,
        )
        .join(',\n      '),
    };
  } finally {
    sharedCallObserver.joined = undefined;
    await h.close();
  }
}

/** BENCH_TIMELINE=1: when the first, median and last purchase passed each audit milestone. */
async function printTimeline(h: WorkerHarness, clockStart: number): Promise<void> {
  const result = await h.database.db.$client.query<{
    reason: string;
    n: number;
    first: number;
    median: number;
    last: number;
  }>(
    `SELECT reason, count(*)::int AS n,
            (extract(epoch FROM min(created_at)) * 1000 - $1)::int AS first,
            (percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM created_at)) * 1000 - $1)::int AS median,
            (extract(epoch FROM max(created_at)) * 1000 - $1)::int AS last
     FROM purchase_events WHERE reason IS NOT NULL GROUP BY reason ORDER BY min(created_at)`,
    [clockStart],
  );
  for (const r of result.rows)
    process.stdout.write(
      `    ${String(r.n).padStart(4)}× ${r.reason.slice(0, 60).padEnd(60)} first ${r.first} ms  median ${r.median} ms  last ${r.last} ms\n`,
    );
  const batches = await h.database.db.$client.query<{
    n: number;
    accepted: number;
    signed: number;
    found: number;
    delivered: number;
  }>(
    `SELECT count(DISTINCT p.id)::int AS n,
            (extract(epoch FROM max(e.created_at) FILTER (WHERE e.reason LIKE 'payment request accepted%')) * 1000 - $1)::int AS accepted,
            (extract(epoch FROM min(e.created_at) FILTER (WHERE e.reason LIKE 'signed%')) * 1000 - $1)::int AS signed,
            (extract(epoch FROM min(e.created_at) FILTER (WHERE e.reason LIKE '%payment found%')) * 1000 - $1)::int AS found,
            (extract(epoch FROM max(e.created_at) FILTER (WHERE e.reason LIKE 'delivered%')) * 1000 - $1)::int AS delivered
     FROM purchases p JOIN purchase_events e ON e.purchase_id = p.id
     WHERE p.batch_id IS NOT NULL GROUP BY p.batch_id ORDER BY signed`,
    [clockStart],
  );
  process.stdout.write('    per external: members, last accepted → signed → found on chain → last delivered (ms)\n');
  for (const b of batches.rows)
    process.stdout.write(`    ${String(b.n).padStart(4)}  ${b.accepted} → ${b.signed} → ${b.found} → ${b.delivered}\n`);
}

function line(r: RunResult): string {
  const own = r.measuredOwnTime
    ? `  own time per purchase p50 ${r.overheadP50.toFixed(1)} ms p95 ${r.overheadP95.toFixed(1)} ms (${r.jobs} jobs, per job p50 ${r.jobOwnP50.toFixed(1)} ms)`
    : '';
  return (
    `${r.label.padEnd(44)} ${r.seconds.toFixed(1).padStart(7)} s  ${r.perSecond.toFixed(2).padStart(7)} /s  p50 ${(r.p50 / 1000).toFixed(2)} s  p95 ${(r.p95 / 1000).toFixed(2)} s${own}, ${r.externals} externals${r.failed ? `  NOT COMPLETED: ${r.failed}` : ''}\n` +
    `    worker event loop busy ${(r.eventLoopBusy * 100).toFixed(0)} %, worker CPU ${r.cpuSeconds.toFixed(1)} s\n` +
    (r.measuredOwnTime ? `    own time per job, by step:\n      ${r.steps}\n` : '')
  );
}

/** The JSON form of a run: `group` names the scenario, `subject` batching on or off. */
function jsonRun(group: string, batching: boolean, r: RunResult): BenchRun {
  return {
    group,
    subject: batching ? 'batching on' : 'batching off',
    label: r.label,
    seconds: r.seconds,
    purchasesPerSecond: r.perSecond,
    completionMs: { p50: r.p50, p95: r.p95 },
    ...(r.measuredOwnTime
      ? {
          ownTimePerPurchaseMs: { p50: r.overheadP50, p95: r.overheadP95 },
          ownTimePerJobP50Ms: r.jobOwnP50,
          jobs: r.jobs,
        }
      : {}),
    externals: r.externals,
    notCompleted: r.failed,
    workerEventLoopBusy: r.eventLoopBusy,
    workerCpuSeconds: r.cpuSeconds,
    ...(r.measuredOwnTime ? { ownTimeBySteps: r.steps.split(',\n      ') } : {}),
  };
}

const RUNS = new Set((process.env.BENCH_RUNS ?? 'streaming,paced,single').split(',').map((part) => part.trim()));

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const runs: BenchRun[] = [];
  const targets: BenchTarget[] = [];
  const streamingGroup = `${N} purchases / ${WALLETS} wallets, streaming`;
  const pacedGroup = `${PACED_N} purchases / ${WALLETS} wallets at ${PACED_RATE}/s`;
  const singleGroup = `1 wallet, ${SINGLE_N} queued`;
  process.stdout.write(
    `bench:pipeline — Node ${process.version}, ${cpus().length} CPUs, 400 ms blocks, Fragment latency 20–40 ms, ${SESSIONS} Fragment login sessions, sandbox process at nice ${SANDBOX_NICENESS}\n\n`,
  );
  if (RUNS.has('streaming')) {
    const batched = await run(`${N} purchases / ${WALLETS} wallets, batching on`, N, WALLETS, 255, 'streaming', true);
    process.stdout.write(line(batched));
    runs.push(jsonRun(streamingGroup, true, batched));
    if (process.env.BENCH_SKIP_OFF !== '1') {
      const single = await run(`${N} purchases / ${WALLETS} wallets, batching off`, N, WALLETS, 1, 'streaming', true);
      process.stdout.write(line(single));
      runs.push(jsonRun(streamingGroup, false, single));
      process.stdout.write(`  batching speed-up: ${(single.seconds / batched.seconds).toFixed(1)}×`);
    }
    als.disable();
    const saturated =
      batched.eventLoopBusy > 0.8
        ? ` (a burst: the worker's event loop was ${(batched.eventLoopBusy * 100).toFixed(0)} % busy, so own time here includes queueing for it; step 3 measures it unqueued)`
        : '';
    process.stdout.write(
      `   overhead p50 target < 50 ms: ${batched.overheadP50 < 50 ? 'met' : 'NOT met'}${saturated}\n\n`,
    );
    targets.push({
      name: `own time per purchase p50, ${streamingGroup} (burst, includes queueing)`,
      target: '< 50 ms',
      value: `${batched.overheadP50.toFixed(1)} ms`,
      met: batched.overheadP50 < 50,
    });
  }
  if (RUNS.has('paced')) {
    const paced = await run(
      `${PACED_N} purchases / ${WALLETS} wallets at ${PACED_RATE}/s`,
      PACED_N,
      WALLETS,
      255,
      { perSecond: PACED_RATE },
      true,
    );
    process.stdout.write(line(paced));
    runs.push(jsonRun(pacedGroup, true, paced));
    process.stdout.write(`  overhead p50 target < 50 ms: ${paced.overheadP50 < 50 ? 'met' : 'NOT met'}\n\n`);
    targets.push({
      name: `own time per purchase p50, ${pacedGroup}`,
      target: '< 50 ms',
      value: `${paced.overheadP50.toFixed(1)} ms`,
      met: paced.overheadP50 < 50,
    });
  }
  if (RUNS.has('single')) {
    const oneOn = await run(
      `1 wallet, ${SINGLE_N} queued, batching on`,
      SINGLE_N,
      1,
      255,
      'queued-first',
      process.env.BENCH_SINGLE_OWN === '1',
    );
    process.stdout.write(line(oneOn));
    runs.push(jsonRun(singleGroup, true, oneOn));
    if (process.env.BENCH_SKIP_OFF !== '1') {
      const oneOff = await run(`1 wallet, ${SINGLE_N} queued, batching off`, SINGLE_N, 1, 1, 'queued-first', false);
      process.stdout.write(line(oneOff));
      runs.push(jsonRun(singleGroup, false, oneOff));
      const ratio = oneOff.seconds / oneOn.seconds;
      targets.push({
        name: `one wallet, ${SINGLE_N} queued: batching speed-up`,
        target: '≥ 20×',
        value: `${ratio.toFixed(1)}×`,
        met: ratio >= 20,
      });
      process.stdout.write(
        `  one wallet speed-up: ${ratio.toFixed(1)}× (target ≥ 20×: ${ratio >= 20 ? 'met' : 'NOT met'})\n`,
      );
    }
  }
  writeBenchJson({
    bench: 'pipeline',
    startedAt,
    settings: {
      streamingPurchases: N,
      wallets: WALLETS,
      pacedPurchases: PACED_N,
      pacedPerSecond: PACED_RATE,
      singleWalletPurchases: SINGLE_N,
      fragmentSessions: SESSIONS,
      seedFormat: SEED_FORMAT,
      sandboxNice: SANDBOX_NICENESS,
      blockMs: 400,
      fragmentLatencyMs: [20, 40],
      parts: [...RUNS],
      batchingOff: process.env.BENCH_SKIP_OFF !== '1',
    },
    runs,
    targets,
    extra: {},
  });
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
