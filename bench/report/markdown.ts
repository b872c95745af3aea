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

/** The gateway's run beside its bare counterpart at the same route and connection count. */
function httpTable(runs: BenchRun[]): string {
  const http = runs.filter((run) => run.requestsPerSecond !== undefined);
  const bareOf = (run: BenchRun) =>
    http.find((other) => other.group === run.group && other.connections === run.connections && isBare(other.subject));
  const rows = [...http]
    .sort((a, b) => a.group.localeCompare(b.group) || (a.connections ?? 0) - (b.connections ?? 0))
    .map((run) => {
      const bare = isBare(run.subject) ? undefined : bareOf(run);
      return [
        run.group,
        run.subject,
        String(run.connections ?? '—'),
        thousands(run.requestsPerSecond),
        bare ? `${((run.requestsPerSecond! / bare.requestsPerSecond!) * 100).toFixed(1)} %` : '',
        fixed(run.latencyMs?.p50, 0),
        fixed(run.latencyMs?.p90, 0),
        fixed(run.latencyMs?.p99, 0),
        fixed(run.latencyMs?.p999, 0),
        bare && run.latencyMs && bare.latencyMs ? `${(run.latencyMs.p99 / bare.latencyMs.p99).toFixed(2)}×` : '',
      ];
    });
  return table(
    ['route', 'handler', 'connections', 'req/s', 'of bare', 'p50 ms', 'p90 ms', 'p99 ms', 'p99.9 ms', 'p99 vs bare'],
    rows,
  );
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
 * The issue's gateway targets at the reference connection count, from the runs themselves: used
 * when bench:gateway's JSON carries no targets of its own.
 */
export function gatewayTargets(runs: BenchRun[], connections: number): BenchTarget[] {
  const pair = (route: RegExp) => {
    const at = runs.filter((run) => route.test(run.group) && run.connections === connections && run.latencyMs);
    return { ours: at.find((run) => !isBare(run.subject)), bare: at.find((run) => isBare(run.subject)) };
  };
  const targets: BenchTarget[] = [];
  for (const [route, share] of [
    [/^GET .*purchases\/:id/, 0.85],
    [/^POST .*purchases$/, 0.45],
  ] as const) {
    const { ours, bare } = pair(route);
    if (!ours || !bare) continue;
    const ratio = ours.requestsPerSecond! / bare.requestsPerSecond!;
    const p99 = ours.latencyMs!.p99 / bare.latencyMs!.p99;
    targets.push(
      {
        name: `${ours.group} throughput vs bare at ${connections} connections`,
        target: `≥ ${share * 100} %`,
        value: `${(ratio * 100).toFixed(1)} %`,
        met: ratio >= share,
      },
      {
        name: `${ours.group} p99 vs bare p99 at ${connections} connections`,
        target: '≤ 1.5×',
        value: `${p99.toFixed(2)}× (${ours.latencyMs!.p99} ms vs ${bare.latencyMs!.p99} ms)`,
        met: p99 <= 1.5,
      },
    );
  }
  return targets;
}

function targetRows(bench: string, targets: BenchTarget[]): string[][] {
  return targets.map((target) => [
    bench,
    target.name,
    target.target,
    target.value,
    target.met ? '✅ met' : '❌ not met',
  ]);
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
    `Generated by \`npm run bench\` (bench/report/) on ${meta.startedAt.slice(0, 16).replace('T', ' ')} UTC at commit ${meta.git}, in ${Math.round((Date.parse(meta.finishedAt) - Date.parse(meta.startedAt)) / 60000)} min. ` +
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

  push('## Targets', '', 'Each target beside the figure measured in this run.', '');
  const rows = Object.entries(results).flatMap<string[]>(([name, result]) => targetRows(name, result.targets));
  push(rows.length ? table(['bench', 'what', 'target', 'figure', ''], rows) : '_No bench reported targets._', '');

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
        ['Node.js', meta.versions.node],
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
    '- **Same run, same machine, side by side.** Every HTTP figure for the gateway has a bare Express 5 handler measured in the same process run right before it (parse JSON, answer JSON): the ratio "of bare" is what the gateway keeps of what Node + Express can do on this machine at that moment, which is steadier than absolute requests per second on a shared machine.',
    "- **Load generator.** [autocannon](https://github.com/mcollina/autocannon) in its own process (`bench:gateway`) or worker thread (`bench:reads`), so it does not share the measured event loop. A run with any non-2xx answer, error or timeout aborts the bench instead of reporting a figure. Latency percentiles are autocannon's HDR histogram over the whole run, in whole milliseconds: where the bare handler's p99 is 1 ms (one connection), the p99 ratio says little.",
    `- **bench:gateway**: the real gateway in-process (Redis rate limiter, JSON Schema validation, PostgreSQL, BullMQ enqueue, access log, metrics) on a fresh database. \`POST /api/v1/purchases\` sends a new order per request (autocannon's \`[<id>]\` gives each a unique idempotency key), \`GET /api/v1/purchases/:id\` reads one purchase. Both servers are warmed up first; then at each connection count of the sweep (${meta.settings.sweep}) the bare handler and the gateway run back to back, ${meta.settings.durationSeconds} s each (\`BENCH_ROUNDS\` such pairs, the median-ratio pair kept). The sandbox's toncenter runs in its own process. The issue's targets are taken at ${reference} connections.`,
    `- **bench:reads**: \`POST /api/v1/availability/check\` and \`GET /api/v1/prices/quote\` with warm caches (Fragment is the sandbox simulator; the bench counts the upstream calls during the runs) against bare handlers, at ${meta.settings.readsConnections} connections, ${meta.settings.durationSeconds} s per run, ${meta.settings.readsRounds} interleaved rounds, the best round of each kept.`,
    "- **bench:pipeline**: the purchase pipeline end to end: the worker in the bench process on real PostgreSQL and Redis, the sandbox (TON chain emulator with 400 ms blocks, Fragment simulator with 20–40 ms latency) in a child process at a lower CPU priority (`BENCH_SANDBOX_NICE`, default nice 10): it stands for Fragment and toncenter, which take none of the service's CPU in production. Scenarios: purchases streaming in from 8 clients over 10 funded wallets, batching on and off; a paced flow below capacity; one wallet with all purchases queued before the worker starts, batching on and off.",
    "- **Own time** (pipeline): the time inside the worker's jobs minus the time awaiting the chain or Fragment (calls in flight, in-job waits for a due outcome, joining a call another job started), summed per purchase over all its jobs. It is the CPU and PostgreSQL time the service spends per purchase, plus queueing for its event loop when a burst saturates it (the streaming runs); the paced run measures it unqueued.",
    `- **Profile**: the gateway alone in a process started with \`node --cpu-prof\`, the sandbox's toncenter in another; ${profile ? `${profile.warmupSeconds} s of POST load to warm up, then ${profile.seconds} s at ${profile.connections} connections whose samples alone are kept` : 'POST load after a warm-up, only the measured window kept'}. The flame graph is rendered from the .cpuprofile's samples (folded stacks → SVG → PNG, no browser); the folded stacks are in \`docs/benchmarks/gateway-post.folded\` for other viewers (speedscope, inferno).`,
    '- **Charts**: Vega-Lite specs compiled to Vega, rendered to SVG by a headless Vega View and to PNG by resvg (bench/report/charts.ts).',
    '',
    "Knobs (environment): `BENCH_SWEEP` (connection counts for bench:gateway, default `1,8,32,64,128`), `BENCH_REFERENCE_CONNECTIONS` (64), `BENCH_DURATION_SECONDS` (5), `BENCH_READS_ROUNDS` (2), `BENCH_PROFILE_SECONDS` (10), `BENCH_ONLY` (e.g. `gateway,profile`), and the pipeline's own (`BENCH_N`, `BENCH_SINGLE_N`, `BENCH_PACED_N`, … see bench/pipeline.bench.ts). `npm run bench -- --render-only` rewrites this page and the charts from the saved results.",
    '',
  );

  push('## Gateway against a bare Express 5 handler', '');
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
      table(
        ['function', 'where', 'owner', 'self ms', 'self', 'total'],
        profile.top.map((row) => [
          `\`${row.name}\``,
          row.location ? `\`${row.location}\`` : '',
          row.origin,
          (row.selfMicros / 1000).toFixed(0),
          `${(row.selfShare * 100).toFixed(1)} %`,
          `${(row.totalShare * 100).toFixed(1)} %`,
        ]),
      ),
      '',
    );
  } else push(missing('profile', data));

  if (data.notes.length) {
    push('## Notes', '');
    for (const note of data.notes) {
      // Demote the note's headings so they nest under this section.
      push(`_From \`bench/report/notes/${note.file}\`:_`, '', note.text.replace(/^(#+) /gm, '##$1 ').trim(), '');
    }
  }
  return `${out.join('\n').trim()}\n`;
}
