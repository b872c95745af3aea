/**
 * The rendering path of `npm run bench`: charts and docs/benchmarks.md from a fixture run's JSON
 * (test/fixtures/bench-report/, the bench JSON contract), and a flame graph from a real
 * .cpuprofile written by `node --cpu-prof`. No timing is asserted: only that real PNGs come out.
 */
import { ownerOf } from '../src/support/profile-packages';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { svgToPng } from '../src/report/charts';
import { flameGraphSvg, summarizeProfile, type CpuProfile } from '../src/report/flamegraph';
import { gatewayTargets } from '../src/report/markdown';
import type { BenchResult } from '../src/support/bench-json';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../../..');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the PNG's IHDR chunk, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.toString('ascii', 12, 16)).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('npm run bench report rendering', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bench-report-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('renders every chart as a PNG and the page with each target beside its figure', async () => {
    // Vega is ESM-only, which jest's CommonJS runtime cannot load: the renderer runs as `npm run bench` does.
    await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'tools/bench/src/report/main.ts',
        '--render-only',
        '--results',
        'tools/bench/test/fixtures/bench-report',
        '--docs',
        dir,
      ],
      { cwd: ROOT },
    );
    const charts = readdirSync(path.join(dir, 'benchmarks')).sort();
    expect(charts).toEqual([
      'cost-cpu.png',
      'gateway-latency.png',
      'gateway-throughput.png',
      'open-loop-latency.png',
      'pipeline.png',
      'reads-latency.png',
    ]);
    for (const chart of charts) {
      const png = readFileSync(path.join(dir, 'benchmarks', chart));
      const { width, height } = pngSize(png);
      expect(width).toBeGreaterThan(800);
      expect(height).toBeGreaterThan(chart === 'cost-cpu.png' ? 200 : 400);
      expect(png.length).toBeGreaterThan(20_000);
    }

    const page = readFileSync(path.join(dir, 'benchmarks.md'), 'utf8');
    for (const chart of charts) expect(page).toContain(`](benchmarks/${chart})`);
    // POST is judged against the floor (a durable intake's least work), the Node 20 figure beside it.
    expect(page).toContain(
      '| gateway | POST /api/v1/purchases throughput vs floor at 64 connections | ≥ 85 % | 78.3 % | ❌ not met | — |',
    );
    expect(page).toMatch(
      /\| cost \| CPU per purchase, gateway \+ worker \+ PostgreSQL \+ Redis \(paced run\) \| ≤ 10 ms \| [\d.]+ ms \| ❌ not met \| [\d.]+ ms ❌ \|/,
    );
    // bench:cost's delivery variants side by side: rows and jobs per purchase, and the ratio against its target.
    expect(page).toContain('| real | 10 / 10 | 141.00 | 68.7 | 78.8 | 29.9 | 158 / 156 |');
    expect(page).toContain('| fast | 10 / 10 | 60.00 | 12.1 | 22.2 | 2.0 | 150 / 152 |');
    expect(page).toContain('Real / fast: **2.35×** the CPU per purchase (target ≤ 1.2×).');
    expect(page).toContain('| bench | what | target | Node v24.21.0 |  | Node v20.20.2 |');
    expect(page).toContain('## Node v20.20.2 beside it');
    expect(page).toMatch(/\| POST \/api\/v1\/purchases \| starsgate \| 64 \| [\d ]+ \| [\d.]+ % \| 78\.3 % \|/);
    expect(page).toMatch(/\| POST \/api\/v1\/purchases \| 100 \| 100\.0 \|/);
    expect(page).toContain('| pipeline | one wallet, 200 queued: batching speed-up | ≥ 20× | 12.8× | ❌ not met | — |');
    expect(page).toContain('| CPU | Fixture CPU, 2 cores |');
    // The fixture's run has no profile step: the page says so instead of showing a stale graph.
    expect(page).toMatch(/## Where the gateway spends its CPU\n\n_Not run in this report/);
  }, 120_000);

  it('judges the gateway targets from the runs when the bench reports none: GET against bare, POST against the floor', () => {
    const fixture = JSON.parse(
      readFileSync(path.join(ROOT, 'tools/bench/test/fixtures/bench-report/gateway.json'), 'utf8'),
    ) as BenchResult;
    const targets = gatewayTargets(fixture.runs, 64);
    expect(targets.map((target) => [target.name, target.target, target.value, target.met])).toEqual([
      ['GET /api/v1/purchases/:id throughput vs bare at 64 connections', '≥ 90 %', '84.0 %', false],
      ['GET /api/v1/purchases/:id p99 vs bare p99 at 64 connections', '≤ 1.2×', '1.13× (18 ms vs 16 ms)', true],
      ['POST /api/v1/purchases throughput vs floor at 64 connections', '≥ 85 %', '78.3 %', false],
      ['POST /api/v1/purchases p99 vs floor p99 at 64 connections', '≤ 1.25×', '1.62× (47 ms vs 29 ms)', false],
    ]);
  });

  it('draws a flame graph from a real --cpu-prof profile', async () => {
    await run(
      process.execPath,
      [
        '--cpu-prof',
        `--cpu-prof-dir=${dir}`,
        '--cpu-prof-interval=200',
        '-e',
        // Spins for 300 ms of its own CPU, not of the clock: on a loaded machine the profiler
        // samples only while the process runs, so a wall-clock spin could yield too few samples.
        'function spinTheWheel(){let x=0;const end=process.cpuUsage().user+300e3;while(process.cpuUsage().user<end)for(let i=0;i<1e4;i++)x+=Math.sqrt(x+1);return x} spinTheWheel()',
      ],
      { cwd: ROOT },
    );
    const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'))!;
    const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile;

    const summary = summarizeProfile(profile, { root: ROOT });
    expect(summary.samples).toBeGreaterThan(100);
    expect(summary.top[0]?.name).toBe('spinTheWheel');
    expect(summary.top[0]!.selfShare).toBeGreaterThan(0.5);
    expect(summary.folded).toMatch(/(^|;)spinTheWheel[^;\n]* \d+$/m);

    const svg = flameGraphSvg(summary, { title: 'spin', subtitle: 'a test profile' });
    expect(svg).toContain('spinTheWheel');
    const png = svgToPng(svg);
    const { width, height } = pngSize(png);
    expect(width).toBe(1600);
    expect(height).toBeGreaterThan(100);
    expect(png.length).toBeGreaterThan(5_000);
  });
});

describe('profile self time by package', () => {
  it('names the npm package (scoped kept whole), our bundle, Node and V8', () => {
    expect(ownerOf('file:///app/node_modules/@ton/core/dist/boc/Cell.js', 'hash')).toBe('@ton/core');
    expect(ownerOf('file:///app/node_modules/bullmq/node_modules/ioredis/built/Redis.js', 'x')).toBe('ioredis');
    expect(ownerOf('file:///app/apps/worker/dist/main.js', 'run')).toBe('starsgate apps/worker');
    expect(ownerOf('node:internal/crypto/hash', 'digest')).toBe('node:internal');
    expect(ownerOf('', '(garbage collector)')).toBe('v8 (garbage collector)');
  });
});
