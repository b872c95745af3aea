/**
 * npm run bench — runs every benchmark, then writes docs/benchmarks.md with its charts.
 *
 *   bench:gateway    connection sweep BENCH_SWEEP (1,8,32,64,128), gateway vs the floor and bare Express 5
 *   bench:reads      at BENCH_REFERENCE_CONNECTIONS (64), BENCH_READS_ROUNDS (2) rounds
 *   bench:pipeline   batching on and off (its own knobs pass through)
 *   bench:open-loop  fixed arrival rates, latency from the scheduled send time
 *   bench:cost       CPU per purchase, memory and start-up of the built bundles (BENCH_COST_PROFILE=1:
 *                    flame graphs of each process's paced run and start-up too, the profiler's cost included)
 *   profile          the gateway under POST load with --cpu-prof → flame graph
 *
 * Every bench runs on the Node release the images ship (`.node-version`, fetched by
 * scripts/node-release.sh when the machine has another; BENCH_NODE overrides), and the benches of
 * BENCH_BESIDE_ONLY (gateway,open-loop,cost) run again on the machine's own Node when it is
 * another major (BENCH_NODE_BESIDE names a binary, `none` skips), results in results/beside/.
 *
 * Each bench runs as its own process with BENCH_JSON_OUT pointing into docs/benchmarks/results/,
 * its output shown and saved beside the JSON. A bench that fails is reported as such; the others
 * still run. `--render-only` skips the runs and rewrites the page and charts from saved results;
 * `--results <dir> --docs <dir>` write elsewhere (the jest test renders a fixture that way).
 */
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DURATION } from '../support/harness';
import { SANDBOX_NICENESS } from '../support/remote-sandbox';
import { flameGraphSvg, summarizeProfile } from './flamegraph';
import { gitDescription, loadSample, machineInfo, versions } from './machine';
import { profileGatewayPost } from './profile';
import {
  BENCH_NAMES,
  loadReportData,
  type BenchName,
  type ProfileRecord,
  type RunMeta,
  type StepRecord,
} from './report-data';
import { renderReport } from './render';
import { svgToPng } from './charts';

const ROOT = path.resolve(__dirname, '../../../..');

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const DOCS_DIR = path.resolve(argument('--docs') ?? path.join(ROOT, 'docs'));
const CHART_DIR = path.join(DOCS_DIR, 'benchmarks');
const RESULTS_DIR = path.resolve(argument('--results') ?? path.join(CHART_DIR, 'results'));
const NOTES_DIR = path.join(ROOT, 'tools/bench/src/report/notes');

const SWEEP = process.env.BENCH_SWEEP ?? '1,8,32,64,128';
const REFERENCE = Number(process.env.BENCH_REFERENCE_CONNECTIONS ?? 64);
const READS_ROUNDS = Number(process.env.BENCH_READS_ROUNDS ?? 2);
const PROFILE_SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 10);
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? 'gateway,reads,pipeline,open-loop,cost,profile').split(',').map((s) => s.trim()),
);
const BESIDE_ONLY = new Set(
  (process.env.BENCH_BESIDE_ONLY ?? 'gateway,open-loop,cost').split(',').map((s) => s.trim()),
);

interface Runtime {
  node: string;
  version: string;
}

function runtimeOf(node: string): Runtime {
  return { node, version: execFileSync(node, ['-v'], { encoding: 'utf8' }).trim() };
}

const major = (version: string) => version.replace(/^v/, '').split('.')[0];

/** The images' Node release first; the machine's own beside it when it is another major. */
function runtimes(): { primary: Runtime; beside?: Runtime } {
  const primary = runtimeOf(
    process.env.BENCH_NODE ??
      path.join(
        execFileSync('bash', [path.join(ROOT, 'scripts/node-release.sh')], { encoding: 'utf8' }).trim(),
        'node',
      ),
  );
  const besideSetting = process.env.BENCH_NODE_BESIDE ?? process.execPath;
  if (besideSetting === 'none') return { primary };
  const beside = runtimeOf(besideSetting);
  return major(beside.version) === major(primary.version) ? { primary } : { primary, beside };
}

const BENCHES: Record<BenchName, { script: string; env: Record<string, string> }> = {
  gateway: { script: 'tools/bench/src/gateway.bench.ts', env: { BENCH_CONNECTIONS: SWEEP } },
  reads: {
    script: 'tools/bench/src/reads.bench.ts',
    env: { BENCH_CONNECTIONS: String(REFERENCE), BENCH_ROUNDS: String(READS_ROUNDS) },
  },
  pipeline: { script: 'tools/bench/src/pipeline.bench.ts', env: {} },
  'open-loop': { script: 'tools/bench/src/open-loop.bench.ts', env: {} },
  cost: {
    script: 'tools/bench/src/cost.bench.ts',
    env: { BENCH_COST_DELIVERY: process.env.BENCH_COST_DELIVERY ?? 'both' },
  },
};

/** Runs one bench script on `runtime`, its output to this terminal and to <dir>/<name>.log. */
function runBench(name: BenchName, runtime: Runtime, beside = false): Promise<StepRecord> {
  const { script, env } = BENCHES[name];
  const dir = beside ? path.join(RESULTS_DIR, 'beside') : RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const json = path.join(dir, `${name}.json`);
  rmSync(json, { force: true });
  const log = createWriteStream(path.join(dir, `${name}.log`));
  const loadBefore = loadSample();
  const started = Date.now();
  process.stdout.write(
    `\n── ${name} on Node ${runtime.version}: ${script} ${Object.entries(env)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ')}\n`,
  );
  return new Promise((resolve) => {
    const child = spawn(runtime.node, ['--import', 'tsx', path.join(ROOT, script)], {
      cwd: ROOT,
      env: { ...process.env, ...env, BENCH_JSON_OUT: json },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', (chunk: Buffer) => {
        process.stdout.write(chunk);
        log.write(chunk);
      });
    }
    child.once('exit', (code) => {
      log.end();
      resolve({
        step: name,
        node: runtime.version,
        ...(beside ? { beside: true } : {}),
        command: `tsx ${script}`,
        env,
        seconds: (Date.now() - started) / 1000,
        exitCode: code,
        resultWritten: existsSync(json),
        loadBefore,
        loadAfter: loadSample(),
      });
    });
  });
}

async function runProfile(runtime: Runtime): Promise<StepRecord> {
  rmSync(path.join(RESULTS_DIR, 'profile.json'), { force: true });
  const loadBefore = loadSample();
  const started = Date.now();
  const warmupSeconds = Math.min(5, PROFILE_SECONDS);
  process.stdout.write(
    `\n── profile: the gateway under POST load, ${REFERENCE} connections, ${warmupSeconds} s warm-up + ${PROFILE_SECONDS} s profiled\n`,
  );
  const step = (exitCode: number, error?: string): StepRecord => ({
    step: 'profile',
    node: runtime.version,
    command: 'node --cpu-prof tools/bench/src/report/gateway-process.ts',
    env: { BENCH_PROFILE_SECONDS: String(PROFILE_SECONDS) },
    seconds: (Date.now() - started) / 1000,
    exitCode,
    resultWritten: exitCode === 0,
    loadBefore,
    loadAfter: loadSample(),
    ...(error ? { error } : {}),
  });
  try {
    const run = await profileGatewayPost({
      seconds: PROFILE_SECONDS,
      warmupSeconds,
      connections: REFERENCE,
      env: process.env,
      node: runtime.node,
    });
    const summary = summarizeProfile(run.profile, { root: ROOT, window: run.window, top: 25 });
    const svg = flameGraphSvg(summary, {
      title: `Gateway CPU profile: POST /api/v1/purchases, ${run.connections} connections, ${run.seconds} s`,
      subtitle: `${summary.samples} samples, busy ${((summary.sampledMicros - summary.idleMicros) / 1e6).toFixed(1)} s of ${(summary.sampledMicros / 1e6).toFixed(1)} s (idle left out); width = time incl. callees`,
    });
    writeFileSync(path.join(CHART_DIR, 'gateway-post-flamegraph.png'), svgToPng(svg, 1));
    writeFileSync(path.join(CHART_DIR, 'gateway-post.folded'), summary.folded);
    const record: ProfileRecord = {
      connections: run.connections,
      seconds: run.seconds,
      warmupSeconds,
      requestsPerSecond: run.requestsPerSecond,
      samples: summary.samples,
      sampledMs: summary.sampledMicros / 1000,
      idleMs: summary.idleMicros / 1000,
      top: summary.top,
      flameGraph: 'benchmarks/gateway-post-flamegraph.png',
      folded: 'benchmarks/gateway-post.folded',
    };
    writeFileSync(path.join(RESULTS_DIR, 'profile.json'), `${JSON.stringify(record, null, 2)}\n`);
    return step(0);
  } catch (error) {
    process.stderr.write(`profile failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    return step(1, error instanceof Error ? error.message : String(error));
  }
}

async function runAll(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  mkdirSync(CHART_DIR, { recursive: true });
  const startedAt = new Date().toISOString();
  const git = gitDescription(ROOT);
  const loadBefore = loadSample();
  const machine = machineInfo();
  process.stdout.write(
    `npm run bench — ${machine.cpuModel}, ${machine.cores} cores, load average ${loadBefore.loadAverage.map((v) => v.toFixed(2)).join(' ')}\n`,
  );
  const { primary, beside } = runtimes();
  process.stdout.write(
    `runtimes: Node ${primary.version} (${primary.node})${beside ? `, and Node ${beside.version} beside it for ${[...BESIDE_ONLY].join(', ')}` : ''}\n`,
  );
  const steps: StepRecord[] = [];
  for (const name of BENCH_NAMES) if (ONLY.has(name)) steps.push(await runBench(name, primary));
  if (ONLY.has('profile')) steps.push(await runProfile(primary));
  if (beside)
    for (const name of BENCH_NAMES)
      if (ONLY.has(name) && BESIDE_ONLY.has(name)) steps.push(await runBench(name, beside, true));
  const meta: RunMeta = {
    startedAt,
    finishedAt: new Date().toISOString(),
    git,
    machine,
    versions: await versions(ROOT),
    loadBefore,
    loadAfter: loadSample(),
    settings: {
      sweep: SWEEP,
      referenceConnections: REFERENCE,
      durationSeconds: DURATION,
      readsConnections: REFERENCE,
      readsRounds: READS_ROUNDS,
      profileSeconds: PROFILE_SECONDS,
      sandboxNice: SANDBOX_NICENESS,
    },
    steps,
    runtimes: { primary: primary.version, ...(beside ? { beside: beside.version } : {}) },
  };
  writeFileSync(path.join(RESULTS_DIR, 'run.json'), `${JSON.stringify(meta, null, 2)}\n`);
  const failed = steps.filter((step) => !step.resultWritten);
  await render();
  if (failed.length) {
    process.stdout.write(`\nsteps that did not finish cleanly: ${failed.map((step) => step.step).join(', ')}\n`);
    process.exitCode = 1;
  }
}

async function render(): Promise<void> {
  const data = loadReportData(RESULTS_DIR, NOTES_DIR);
  const written = await renderReport(data, DOCS_DIR);
  process.stdout.write(`\nwrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}\n`);
}

(process.argv.includes('--render-only') ? render() : runAll()).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
