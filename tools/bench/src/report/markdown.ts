/** docs/benchmarks.md from one run's results: machine, versions, method, tables, targets, charts. */
import { isBare, type BenchResult, type BenchRun, type BenchTarget } from '../support/bench-json';
import type { LoadSample } from './machine';
import type { ReportData, StepRecord } from './report-data';

interface WalletResolve {
  seeds: number;
  ok?: number;
  resolvesPerSecond?: number;
  concurrentGetLatencyMs?: { p50: number; p99: number };
}

export interface ChartFiles {
  latency?: string;
  throughput?: string;
  readsLatency?: string;
  pipeline?: string;
  openLoop?: string;
  cost?: string;
  flameGraph?: string;
}

const fixed = (value: number | undefined, digits = 1) => (value === undefined ? '—' : value.toFixed(digits));
const thousands = (value: number | undefined) =>
  value === undefined ? '—' : Math.round(value).toLocaleString('en-US').replace(/,/g, ' ');
const load = (sample: LoadSample) => sample.loadAverage.map((value) => value.toFixed(2)).join(' / ');

function table(header: string[], rows: string[][]): string {
  const escape = (cell: string) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    `| ${header.map(escape).join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
}

/** A profile's functions by self time (shares of the busy time; "total" includes callees). */
function selfTimeTable(
  rows: ReadonlyArray<{
    name: string;
    location?: string;
    origin: string;
    selfMicros: number;
    selfShare: number;
    totalShare: number;
  }>,
): string {
  return table(
    ['function', 'where', 'owner', 'self ms', 'self', 'total'],
    rows.map((row) => [
      `\`${row.name}\``,
      row.location ? `\`${row.location}\`` : '',
      row.origin,
      (row.selfMicros / 1000).toFixed(0),
      `${(row.selfShare * 100).toFixed(1)} %`,
      `${(row.totalShare * 100).toFixed(1)} %`,
    ]),
  );
}

/**
 * Each run beside the references measured at the same route and connection count: the bare
 * handler (the ceiling of Node + Express) and, for POST, the floor (the least a durable intake does).
 */
function httpTable(runs: BenchRun[]): string {
  const http = runs.filter((run) => run.requestsPerSecond !== undefined);
  const referenceOf = (run: BenchRun, subject: (name: string) => boolean) =>
    http.find((other) => other.group === run.group && other.connections === run.connections && subject(other.subject));
  const hasFloor = http.some((run) => isFloor(run.subject));
  const versus = (run: BenchRun, reference: BenchRun | undefined) =>
    reference && reference !== run
      ? [
          `${((run.requestsPerSecond! / reference.requestsPerSecond!) * 100).toFixed(1)} %`,
          run.latencyMs && reference.latencyMs ? `${(run.latencyMs.p99 / reference.latencyMs.p99).toFixed(2)}×` : '',
        ]
      : ['', ''];
  const rows = [...http]
    .sort((a, b) => a.group.localeCompare(b.group) || (a.connections ?? 0) - (b.connections ?? 0))
    .map((run) => {
      const bare = isBare(run.subject) ? undefined : referenceOf(run, isBare);
      const floor = isBare(run.subject) || isFloor(run.subject) ? undefined : referenceOf(run, isFloor);
      const [ofBare, p99Bare] = versus(run, bare);
      const [ofFloor, p99Floor] = versus(run, floor);
      return [
        run.group,
        run.subject,
        String(run.connections ?? '—'),
        thousands(run.requestsPerSecond),
        ofBare!,
        ...(hasFloor ? [ofFloor!] : []),
        fixed(run.latencyMs?.p50, 0),
        fixed(run.latencyMs?.p90, 0),
        fixed(run.latencyMs?.p99, 0),
        fixed(run.latencyMs?.p999, 0),
        p99Bare!,
        ...(hasFloor ? [p99Floor!] : []),
      ];
    });
  return table(
    [
      'route',
      'handler',
      'connections',
      'req/s',
      'of bare',
      ...(hasFloor ? ['of floor'] : []),
      'p50 ms',
      'p90 ms',
      'p99 ms',
      'p99.9 ms',
      'p99 vs bare',
      ...(hasFloor ? ['p99 vs floor'] : []),
    ],
    rows,
  );
}

const isFloor = (subject: string) => subject === 'floor';

/** Open loop: per route and arrival rate, the latency a client feels from the scheduled send time. */
function openLoopTable(runs: BenchRun[]): string {
  return table(
    ['route', 'rate /s', 'achieved /s', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'failed'],
    runs.map((run) => {
      const latency = run.latencyMs!;
      return [
        run.group,
        String(run.ratePerSecond),
        fixed(run.achievedPerSecond as number),
        fixed(latency.p50, 2),
        fixed(latency.p90, 2),
        fixed(latency.p99, 2),
        fixed(latency.p999, 2),
        fixed(latency.max, 1),
        String(typeof run.failed === 'number' ? run.failed : 0),
      ];
    }),
  );
}

interface CpuPerPurchase {
  gateway: number;
  worker: number;
  postgres: number;
  redis: number;
  total: number;
}

interface CostProfile {
  process: string;
  phase: string;
  samples: number;
  busyMs: number;
  top: Array<{
    name: string;
    location: string;
    origin: string;
    selfMicros: number;
    selfShare: number;
    totalShare: number;
  }>;
  flameGraph: string;
}

/** bench:cost: CPU per purchase by process, then each bundle's memory and start-up, then its profiles if taken. */
function costTables(result: BenchResult): string[] {
  const { runs } = result;
  const out: string[] = [];
  const paced = runs.find((run) => run.group === 'paced pipeline');
  if (paced) {
    const cpu = paced.cpuMsPerPurchase as CpuPerPurchase;
    const cluster = result.extra.postgresClusterMsPerPurchase as number | undefined;
    out.push(
      `${String(paced.completed)} of ${String(paced.purchases)} purchases completed in ${fixed(paced.seconds as number)} s. CPU time (user + system) from the first POST to the last completion, per completed purchase:`,
      '',
      table(
        ['process', 'CPU ms per purchase', 'share'],
        (['gateway', 'worker', 'postgres', 'redis'] as const).map((name) => [
          name === 'postgres'
            ? "PostgreSQL (the gateway's and the worker's backends)"
            : name === 'redis'
              ? 'Redis'
              : name,
          fixed(cpu[name], 2),
          `${((cpu[name] / cpu.total) * 100).toFixed(0)} %`,
        ]),
      ),
      '',
      `In all: **${fixed(cpu.total, 2)} ms** of CPU per purchase.` +
        (cluster === undefined
          ? ''
          : ` The whole PostgreSQL cluster over the same time (other databases, background writers, the bench's polling; not counted) used ${fixed(cluster, 2)} ms per purchase.`),
      '',
    );
  }
  const variants = runs.filter((run) => run.group.startsWith('paced pipeline') && run.delivery !== undefined);
  if (variants.length) {
    const real = variants.find((run) => run.delivery === 'real');
    const fast = variants.find((run) => run.delivery === 'fast');
    const totalOf = (run: BenchRun) => (run.cpuMsPerPurchase as CpuPerPurchase).total;
    out.push(
      "By Fragment's delivery time in the simulator (`real`: 30–60 s after payment, as Fragment's own; `fast`: under half a second). Rows: `pg_stat_user_tables` deltas over the run; jobs: BullMQ `added` events:",
      '',
      table(
        [
          'delivery',
          'completed',
          'CPU ms per purchase',
          'row updates per purchase',
          'rows written per purchase',
          'jobs added per purchase',
          'worker / gateway RSS max MB',
        ],
        variants.map((run) => {
          const memory = run.residentMb as { load: Record<'gateway' | 'worker', { max: number }> } | undefined;
          return [
            String(run.delivery),
            `${String(run.completed)} / ${String(run.purchases)}`,
            fixed(totalOf(run), 2),
            fixed(run.rowUpdatesPerPurchase as number, 1),
            fixed(run.rowWritesPerPurchase as number, 1),
            fixed(run.jobsPerPurchase as number, 1),
            memory ? `${fixed(memory.load.worker.max, 0)} / ${fixed(memory.load.gateway.max, 0)}` : '—',
          ];
        }),
      ),
      '',
      ...(real && fast
        ? [`Real / fast: **${(totalOf(real) / totalOf(fast)).toFixed(2)}×** the CPU per purchase (target ≤ 1.2×).`, '']
        : []),
    );
  }
  const footprint = runs.filter((run) => run.group === 'footprint');
  if (footprint.length)
    out.push(
      table(
        [
          'bundle',
          'start → /readyz, each start s',
          'CPU of each start s',
          'idle resident MB',
          'under load, max / mean MB',
        ],
        footprint.map((run) => {
          const load = run.loadResidentMb as { max: number; mean: number };
          return [
            run.subject,
            (run.readySeconds as number[]).map((value) => value.toFixed(2)).join(', '),
            ((run.readyCpuSeconds as number[] | undefined) ?? []).map((value) => value.toFixed(2)).join(', ') || '—',
            fixed(run.idleResidentMb as number, 0),
            `${fixed(load.max, 0)} / ${fixed(load.mean, 0)}`,
          ];
        }),
      ),
      '',
    );
  const profiles = (result.extra.profiles as CostProfile[] | undefined) ?? [];
  if (profiles.length)
    out.push(
      'Profiled (`BENCH_COST_PROFILE=1`: the processes ran with `--cpu-prof`, so the figures above include the profiler):',
      '',
    );
  for (const profile of profiles)
    out.push(
      `**${profile.process}, ${profile.phase}**: busy ${fixed(profile.busyMs / 1000, 2)} s in ${profile.samples} samples.`,
      '',
      `![Flame graph of the ${profile.process}, ${profile.phase}](${profile.flameGraph})`,
      '',
      selfTimeTable(profile.top.slice(0, 10)),
      '',
    );
  return out;
}

function pipelineTable(runs: BenchRun[]): string {
  const ms = (value: unknown, key: string) =>
    value && typeof value === 'object' ? fixed((value as Record<string, number>)[key]) : '—';
  return table(
    [
      'scenario',
      'batching',
      'wall time s',
      'purchases/s',
      'p50 s',
      'p95 s',
      'own time p50 ms',
      'own time p95 ms',
      'externals',
      'not completed',
      'worker loop busy',
      'worker CPU s',
    ],
    runs.map((run) => [
      run.group,
      run.subject,
      fixed(run.seconds as number),
      fixed(run.purchasesPerSecond as number, 2),
      fixed((run.completionMs as { p50: number }).p50 / 1000, 2),
      fixed((run.completionMs as { p95: number }).p95 / 1000, 2),
      ms(run.ownTimePerPurchaseMs, 'p50'),
      ms(run.ownTimePerPurchaseMs, 'p95'),
      typeof run.externals === 'number' ? String(run.externals) : '—',
      typeof run.notCompleted === 'number' ? String(run.notCompleted) : '—',
      `${Math.round((run.workerEventLoopBusy as number) * 100)} %`,
      fixed(run.workerCpuSeconds as number),
    ]),
  );
}

/**
 * The gateway targets at the reference connection count, from the runs themselves (GET against
 * the bare handler, POST against the floor): for a result that carries no targets of its own.
 */
export function gatewayTargets(runs: BenchRun[], connections: number): BenchTarget[] {
  const pair = (route: RegExp) => {
    const at = runs.filter((run) => route.test(run.group) && run.connections === connections && run.latencyMs);
    const isReference = (subject: string) => isBare(subject) || isFloor(subject);
    return {
      ours: at.find((run) => !isReference(run.subject)),
      references: at.filter((run) => isReference(run.subject)),
    };
  };
  const targets: BenchTarget[] = [];
  for (const [route, reference, share, p99Limit] of [
    [/^GET .*purchases\/:id/, 'bare', 0.9, 1.2],
    [/^POST .*purchases$/, 'floor', 0.85, 1.25],
  ] as const) {
    const { ours, references } = pair(route);
    const base = references.find((run) => (reference === 'bare' ? isBare(run.subject) : isFloor(run.subject)));
    if (!ours || !base) continue;
    const ratio = ours.requestsPerSecond! / base.requestsPerSecond!;
    const p99 = ours.latencyMs!.p99 / base.latencyMs!.p99;
    targets.push(
      {
        name: `${ours.group} throughput vs ${reference} at ${connections} connections`,
        target: `≥ ${Math.round(share * 100)} %`,
        value: `${(ratio * 100).toFixed(1)} %`,
        met: ratio >= share,
      },
      {
        name: `${ours.group} p99 vs ${reference} p99 at ${connections} connections`,
        target: `≤ ${p99Limit}×`,
        value: `${p99.toFixed(2)}× (${ours.latencyMs!.p99} ms vs ${base.latencyMs!.p99} ms)`,
        met: p99 <= p99Limit,
      },
    );
  }
  return targets;
}

const verdict = (target: BenchTarget) => (target.met ? '✅ met' : '❌ not met');

/** One row per target; with a second runtime, its figure for the same target beside. */
function targetRows(bench: string, targets: BenchTarget[], beside?: BenchTarget[]): string[][] {
  return targets.map((target) => {
    const row = [bench, target.name, target.target, target.value, verdict(target)];
    if (!beside) return row;
    const other = beside.find((candidate) => candidate.name === target.name);
    return [...row, other ? `${other.value} ${other.met ? '✅' : '❌'}` : '—'];
  });
}

function stepLine(step: StepRecord): string[] {
  const outcome =
    step.exitCode === 0
      ? 'ok'
      : step.error
        ? `failed: ${step.error}`
        : step.resultWritten
          ? `exit ${step.exitCode}: a target was missed`
          : `exit ${step.exitCode}, no result (see its log)`;
  return [step.step, `${step.seconds.toFixed(0)} s`, load(step.loadBefore), load(step.loadAfter), outcome];
}

function missing(name: string, data: ReportData): string {
  const step = data.meta.steps.find((candidate) => candidate.step === name);
  if (!step) return `_Not run in this report (\`BENCH_ONLY\` left it out)._\n`;
  const why = step.error
    ? `failed (${step.error})`
    : step.exitCode === 0
      ? 'finished but wrote no JSON (does it honour BENCH_JSON_OUT?)'
      : `exited with ${step.exitCode}`;
  return `_No result: the bench ${why}; its output is in \`docs/benchmarks/results/${name}.log\`._\n`;
}

function settingsLine(result: BenchResult): string {
  return Object.entries(result.settings)
    .map(([key, value]) => `${key} ${Array.isArray(value) ? value.join(', ') : JSON.stringify(value)}`)
    .join('; ');
}

export function renderMarkdown(data: ReportData, charts: ChartFiles): string {
  const { meta, results, profile } = data;
  const out: string[] = [];
  const push = (...lines: string[]) => out.push(...lines);
  const reference = Number(meta.settings.referenceConnections ?? 64);

  push(
    '# Benchmarks',
    '',
    `Generated by \`npm run bench\` (tools/bench/src/report/) on ${meta.startedAt.slice(0, 16).replace('T', ' ')} UTC at commit ${meta.git}, in ${Math.round((Date.parse(meta.finishedAt) - Date.parse(meta.startedAt)) / 60000)} min. ` +
      "Every figure below comes from that one run; the raw JSON and each bench's printed output are in [`docs/benchmarks/results/`](benchmarks/results/). " +
      'Benchmarks are scripts, not tests: a missed target is reported here, never asserted.',
    '',
  );
  const [one] = meta.loadBefore.loadAverage;
  if (one > meta.machine.cores * 0.5 || meta.loadAfter.loadAverage[0] > meta.machine.cores * 1.5)
    push(
      `> **Load warning.** The machine was not quiet: load average ${load(meta.loadBefore)} before the run and ${load(meta.loadAfter)} after it, on ${meta.machine.cores} cores. ` +
        'Other processes took CPU from both the gateway and the bare handler, so absolute figures are low and ratios noisy; re-run on a quiet machine for figures to quote.',
      '',
    );

  const primary = meta.runtimes?.primary ?? meta.versions.node;
  const besideNode = meta.runtimes?.beside && Object.keys(data.beside).length ? meta.runtimes.beside : undefined;
  push(
    '## Targets',
    '',
    `Each target beside the figure measured in this run, on Node ${primary} (the release the images ship)` +
      (besideNode ? `; the last column is the same target on Node ${besideNode}, run right after.` : '.'),
    '',
  );
  const rows = Object.entries(results).flatMap<string[]>(([name, result]) =>
    targetRows(
      name,
      result.targets,
      besideNode ? (data.beside[name as keyof typeof data.beside]?.targets ?? []) : undefined,
    ),
  );
  push(
    rows.length
      ? table(['bench', 'what', 'target', `Node ${primary}`, '', ...(besideNode ? [`Node ${besideNode}`] : [])], rows)
      : '_No bench reported targets._',
    '',
  );

  push('## Machine', '');
  push(
    table(
      ['', ''],
      [
        ['CPU', `${meta.machine.cpuModel}, ${meta.machine.cores} cores`],
        ['memory', `${meta.machine.memoryGiB} GiB`],
        ['OS', `${meta.machine.os} (${meta.machine.kernel})`],
        ['load average (1 / 5 / 15 min) before', load(meta.loadBefore)],
        ['load average after', load(meta.loadAfter)],
        ['bench niceness', String(meta.machine.niceness)],
      ],
    ),
    '',
    'Load average before and after each step:',
    '',
    table(['step', 'took', 'load before', 'load after', 'outcome'], meta.steps.map(stepLine)),
    '',
  );

  push('## Versions', '');
  push(
    table(
      ['component', 'version'],
      [
        ['Node.js', besideNode ? `${primary} (every bench), ${besideNode} (beside it)` : primary],
        ['PostgreSQL server', meta.versions.postgres],
        ['Redis server', meta.versions.redis],
        ...Object.entries(meta.versions.packages),
      ],
    ),
    '',
  );

  push(
    '## Method',
    '',
    '- **Same run, same machine, side by side.** Every HTTP figure for the gateway has its references measured in the same process run right before it: a bare Express 5 handler (parse JSON, answer JSON), the ceiling of Node + Express, and for `POST /api/v1/purchases` the **floor**: Express 5, `express.json`, one `INSERT … ON CONFLICT DO NOTHING RETURNING` into a copy of `purchases` (`LIKE purchases INCLUDING ALL`: the same width, CHECKs and indexes) and one BullMQ `add`, then a 202 — the least work a durable, idempotent intake can do (`tools/bench/src/support/floor-server.ts`). A POST must commit to PostgreSQL and Redis, so the floor, not the bare handler, is its fair reference; a GET already outruns a plain primary-key `SELECT`, so bare is its reference. Ratios measured side by side are steadier than absolute requests per second on a shared machine.',
    `- **Runtimes.** Every bench runs on Node ${primary}, the release the images ship (\`.node-version\`; \`scripts/node-release.sh\` fetches it from the npm registry when the machine has another)` +
      (besideNode
        ? `; the gateway, open-loop and cost benches run again on Node ${besideNode}, which \`engines\` still allows.`
        : '.'),
    "- **Load generator.** [autocannon](https://github.com/mcollina/autocannon) in its own process (`bench:gateway`) or worker thread (`bench:reads`), so it does not share the measured event loop. A run with any non-2xx answer, error or timeout aborts the bench instead of reporting a figure. Latency percentiles are autocannon's HDR histogram over the whole run, in whole milliseconds: where the bare handler's p99 is 1 ms (one connection), the p99 ratio says little.",
    `- **bench:gateway**: the real gateway in-process (Redis rate limiter, JSON Schema validation, PostgreSQL, BullMQ enqueue, access log, metrics) on a fresh database. \`POST /api/v1/purchases\` sends a new order per request (autocannon's \`[<id>]\` gives each a unique idempotency key), \`GET /api/v1/purchases/:id\` reads one purchase. Every server is warmed up first; then at each connection count of the sweep (${meta.settings.sweep}) the references and the gateway run back to back, ${meta.settings.durationSeconds} s each (\`BENCH_ROUNDS\` such pairs, the median-ratio pair kept). The sandbox's toncenter runs in its own process. The targets are taken at ${reference} connections.`,
    `- **bench:reads**: \`POST /api/v1/availability/check\` and \`GET /api/v1/prices/quote\` with warm caches (Fragment is the sandbox simulator; the bench counts the upstream calls during the runs) against bare handlers, at ${meta.settings.readsConnections} connections, ${meta.settings.durationSeconds} s per run, ${meta.settings.readsRounds} interleaved rounds, the best round of each kept.`,
    "- **bench:pipeline**: the purchase pipeline end to end: the worker in the bench process on real PostgreSQL and Redis, the sandbox (TON chain emulator with 400 ms blocks, Fragment simulator with 20–40 ms latency) in a child process at a lower CPU priority (`BENCH_SANDBOX_NICE`, default nice 10): it stands for Fragment and toncenter, which take none of the service's CPU in production. Scenarios: purchases streaming in from 8 clients over 10 funded wallets, batching on and off; a paced flow below capacity; one wallet with all purchases queued before the worker starts, batching on and off.",
    "- **Own time** (pipeline): the time inside the worker's jobs minus the time awaiting the chain or Fragment (calls in flight, in-job waits for a due outcome, joining a call another job started), summed per purchase over all its jobs. It is the CPU and PostgreSQL time the service spends per purchase, plus queueing for its event loop when a burst saturates it (the streaming runs); the paced run measures it unqueued.",
    `- **Profile**: the gateway alone in a process started with \`node --cpu-prof\`, the sandbox's toncenter in another; ${profile ? `${profile.warmupSeconds} s of POST load to warm up, then ${profile.seconds} s at ${profile.connections} connections whose samples alone are kept` : 'POST load after a warm-up, only the measured window kept'}. The flame graph is rendered from the .cpuprofile's samples (folded stacks → SVG → PNG, no browser); the folded stacks are in \`docs/benchmarks/gateway-post.folded\` for other viewers (speedscope, inferno).`,
    `- **bench:open-loop**: requests leave at a fixed arrival rate whatever the answers (\`tools/bench/src/support/open-loop-runner.ts\`, its own process, up to 256 keep-alive sockets), and each latency is measured from the request's **scheduled** send time, so a stall is charged to every request that should have left during it: no coordinated omission, unlike a closed loop, where p99 is about connections ÷ throughput. \`POST /api/v1/purchases\` (a new order each) and \`GET /api/v1/purchases/:id\` on the in-process gateway, ${Number(results['open-loop']?.settings.durationSeconds ?? 10)} s per rate. The generator's own send lag is reported with each run.`,
    '- **bench:cost**: the built bundles (`apps/*/dist/main.js`, as the images run them): one gateway and one worker process, the sandbox in a third at nice 10. Start-up is timed from spawn to the first 2xx of `/readyz` (polled every 10 ms). A paced run posts purchases over HTTP at a fixed rate and follows them in PostgreSQL to `completed`; the CPU time (user + system, from `/proc/<pid>/stat`) of the gateway, the worker, the PostgreSQL backends of their own connections (found in `pg_stat_activity` by database and application name, sampled every 250 ms; the whole cluster is shown beside it, not counted, since other databases share it) and Redis over that run, divided by the purchases completed, is the CPU each purchase costs, idle work during the run included. Resident memory (`VmRSS`) is sampled every 500 ms. The simulator delivers 30–60 s after payment by default, as Fragment does (`BENCH_COST_DELIVERY=fast`: under half a second, the setting before issue 37; `both`, what `npm run bench` runs: real then fast on fresh stacks, with the ratio). Beside CPU: rows written per purchase, per table (`pg_stat_user_tables` deltas, the closing reading once the services have closed their connections, so every backend has reported its counts), and BullMQ jobs added per purchase (the `added` entries in the event stream of each queue, read as it grows).',
    '- **Charts**: Vega-Lite specs compiled to Vega, rendered to SVG by a headless Vega View and to PNG by resvg (tools/bench/src/report/charts.ts).',
    '',
    "Knobs (environment): `BENCH_SWEEP` (connection counts for bench:gateway, default `1,8,32,64,128`), `BENCH_REFERENCE_CONNECTIONS` (64), `BENCH_DURATION_SECONDS` (5), `BENCH_READS_ROUNDS` (2), `BENCH_PROFILE_SECONDS` (10), `BENCH_ONLY` (e.g. `gateway,profile`), `BENCH_COST_PROFILE=1` (flame graphs of bench:cost's gateway and worker), `BENCH_COST_DELIVERY` (`real`, `fast`, `both`), `BENCH_COST_NODE_OPTIONS` / `BENCH_COST_SERVICE_ENV` (flags and variables for both services, for memory experiments), and the pipeline's own (`BENCH_N`, `BENCH_SINGLE_N`, `BENCH_PACED_N`, … see tools/bench/src/pipeline.bench.ts). `npm run bench -- --render-only` rewrites this page and the charts from the saved results.",
    '',
  );

  push('## Gateway against the floor and a bare Express 5 handler', '');
  if (results.gateway) {
    push(`Settings: ${settingsLine(results.gateway)}.`, '');
    if (charts.latency) push(`![Latency percentiles, gateway and bare](${charts.latency})`, '');
    if (charts.throughput) push(`![Throughput against connections](${charts.throughput})`, '');
    push(httpTable(results.gateway.runs), '');
    // The load average is in the step table above already.
    const {
      walletResolve,
      loadAverage: _loadAverage,
      ...rest
    } = results.gateway.extra as { walletResolve?: WalletResolve; loadAverage?: unknown };
    if (walletResolve)
      push(
        `Wallet resolution (TON-native 24-word seeds, 100 000 PBKDF2 iterations each, distinct seeds): ${walletResolve.ok ?? '?'}/${walletResolve.seeds} resolved at ${fixed(walletResolve.resolvesPerSecond)} resolves/s; ` +
          (walletResolve.concurrentGetLatencyMs
            ? `GETs running meanwhile answered in p50 ${walletResolve.concurrentGetLatencyMs.p50} ms, p99 ${walletResolve.concurrentGetLatencyMs.p99} ms (key derivation stays off the event loop).`
            : ''),
        '',
      );
    if (Object.keys(rest).length) push('Also reported:', '', '```json', JSON.stringify(rest, null, 2), '```', '');
  } else push(missing('gateway', data));

  push('## Read endpoints', '');
  if (results.reads) {
    push(`Settings: ${settingsLine(results.reads)}.`, '');
    if (charts.readsLatency) push(`![Read endpoints: latency percentiles](${charts.readsLatency})`, '');
    push(httpTable(results.reads.runs), '');
    const calls = results.reads.extra.fragmentCallsDuringRuns as Record<string, number> | undefined;
    if (calls)
      push(
        `Fragment calls during the runs (the caches held): ${Object.entries(calls)
          .map(([method, count]) => `${method} ${count}`)
          .join(', ')}.`,
        '',
      );
  } else push(missing('reads', data));

  push('## Purchase pipeline', '');
  if (results.pipeline) {
    push(`Settings: ${settingsLine(results.pipeline)}.`, '');
    if (charts.pipeline) push(`![Pipeline, batching on and off](${charts.pipeline})`, '');
    push(pipelineTable(results.pipeline.runs), '');
    const steps = results.pipeline.runs.filter((run) => Array.isArray(run.ownTimeBySteps));
    if (steps.length) {
      push('Own time per job, by the step the job ran:', '');
      for (const run of steps)
        push(`- ${run.group}, ${run.subject}:`, ...(run.ownTimeBySteps as string[]).map((line) => `  - ${line}`));
      push('');
    }
  } else push(missing('pipeline', data));

  push('## Open-loop latency', '');
  if (results['open-loop']) {
    const served = results['open-loop'].extra.highestServedRate as Record<string, number> | undefined;
    const limit = Number(results['open-loop'].settings.servedP99Ms ?? 20);
    push(`Settings: ${settingsLine(results['open-loop'])}.`, '');
    if (charts.openLoop) push(`![Open-loop latency against arrival rate](${charts.openLoop})`, '');
    push(openLoopTable(results['open-loop'].runs), '');
    if (served)
      push(
        `Highest rate measured whose p99 stays under ${limit} ms: ${[
          'POST /api/v1/purchases',
          'GET /api/v1/purchases/:id',
        ]
          .map((route) => `${route} ${served[route] ? `${served[route]}/s` : 'none of the rates measured'}`)
          .join('; ')}.`,
        '',
      );
  } else push(missing('open-loop', data));

  push('## What a purchase costs the machine', '');
  if (results.cost) {
    push(`Settings: ${settingsLine(results.cost)}.`, '');
    if (charts.cost) push(`![CPU per purchase by process](${charts.cost})`, '');
    push(...costTables(results.cost));
  } else push(missing('cost', data));

  if (besideNode) {
    push(
      `## Node ${besideNode} beside it`,
      '',
      `The same benches on Node ${besideNode}, run right after the Node ${primary} ones on the same machine.`,
      '',
    );
    if (data.beside.gateway) push('### Gateway', '', httpTable(data.beside.gateway.runs), '');
    if (data.beside['open-loop']) push('### Open-loop latency', '', openLoopTable(data.beside['open-loop'].runs), '');
    if (data.beside.cost) push('### What a purchase costs the machine', '', ...costTables(data.beside.cost));
  }

  push('## Where the gateway spends its CPU', '');
  if (profile) {
    const busy = profile.sampledMs - profile.idleMs;
    push(
      `\`POST /api/v1/purchases\` at ${profile.connections} connections for ${profile.seconds} s: ${thousands(profile.requestsPerSecond)} req/s while profiled (the profiler slows the process down). ` +
        `${profile.samples} samples over ${(profile.sampledMs / 1000).toFixed(1)} s, of which the main thread was idle ${((profile.idleMs / profile.sampledMs) * 100).toFixed(0)} % (waiting for PostgreSQL, Redis and the network) and busy ${(busy / 1000).toFixed(1)} s. ` +
        'Width is time on the CPU including callees; the root is at the bottom; colours tell who owns the code.',
      '',
      `![Flame graph of the gateway under POST load](${charts.flameGraph ?? profile.flameGraph})`,
      '',
      'Functions with the most self time (shares of the busy time; "total" includes callees):',
      '',
      selfTimeTable(profile.top),
      '',
    );
  } else push(missing('profile', data));

  if (data.notes.length) {
    push('## Notes', '');
    for (const note of data.notes) {
      // Demote the note's headings so they nest under this section.
      push(
        `_From \`tools/bench/src/report/notes/${note.file}\`:_`,
        '',
        note.text.replace(/^(#+) /gm, '##$1 ').trim(),
        '',
      );
    }
  }
  return `${out.join('\n').trim()}\n`;
}
