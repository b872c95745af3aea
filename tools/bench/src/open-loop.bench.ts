/**
 * npm run bench:open-loop — what a client of the gateway feels at a given arrival rate. Requests
 * leave at a fixed rate whatever the answers (support/open-loop-runner.ts, in its own process) and
 * each latency counts from the request's scheduled send time, so a stall is charged to every
 * request that should have left during it (no coordinated omission).
 *   POST /api/v1/purchases (a new order each) and GET /api/v1/purchases/:id at each rate of
 *   BENCH_OPEN_RATES (100 to 500 by 100, and 1,000 per second; a 2-core machine serves about 500
 *   POSTs a second, so a higher rate only grows a backlog),
 *   BENCH_OPEN_SECONDS (10) each, after a warm-up at the lowest rate.
 * Reports p50, p99, p99.9 per rate, and per route the highest rate measured whose p99 stays under
 * 20 ms. Target: POST p99 ≤ 15 ms at 500/s.
 * BENCH_JSON_OUT=<file> also writes the figures as JSON (bench/support/bench-json.ts).
 */
import { writeBenchJson, type BenchRun, type BenchTarget } from './support/bench-json';
import { runLoadGenerator, startBenchGateway } from './support/harness';
import type { OpenLoopOptions, OpenLoopResult } from './support/open-loop-runner';
import { startRemoteSandbox } from './support/remote-sandbox';
import { starsOrderJson } from './support/stars-order';

const RATES = (process.env.BENCH_OPEN_RATES ?? '100,200,300,400,500,1000').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_OPEN_SECONDS ?? 10);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** The p99 under which a rate counts as served. */
const SERVED_P99_MS = 20;
const POST_TARGET = { rate: 500, p99Ms: 15 };

function openLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  return runLoadGenerator<OpenLoopResult>('open-loop-runner.ts', options);
}

function ms(value: number): string {
  return value.toFixed(value < 10 ? 2 : 1).padStart(7);
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const sandbox = await startRemoteSandbox({ seed: 'bench-open-loop' });
  const bench = await startBenchGateway({
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    USDT_MASTER_ADDRESS: sandbox.usdtMaster.toString(),
  });
  process.stdout.write(`bench:open-loop — rates ${RATES.join(', ')}/s, ${SECONDS} s each, Node ${process.version}\n\n`);
  const created = await fetch(`${bench.url}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: starsOrderJson(`open-loop-${process.pid}-read`),
  });
  const { status_url: statusUrl } = (await created.json()) as { status_url: string };

  const routes: Array<{ name: string; options: Pick<OpenLoopOptions, 'url' | 'method' | 'body'> }> = [
    {
      name: 'POST /api/v1/purchases',
      options: { url: `${bench.url}/api/v1/purchases`, method: 'POST', body: starsOrderJson('open-[<id>]') },
    },
    { name: 'GET /api/v1/purchases/:id', options: { url: `${bench.url}${statusUrl}`, method: 'GET' } },
  ];
  const common = { maxSockets: 256, timeoutMs: 10_000 };

  for (const route of routes) {
    await openLoop({ ...route.options, ...common, rate: RATES[0]!, durationSeconds: WARMUP_SECONDS });
  }

  const runs: BenchRun[] = [];
  const lines: string[] = [];
  const highestServed = new Map<string, number>();
  for (const route of routes) {
    for (const rate of RATES) {
      const result = await openLoop({ ...route.options, ...common, rate, durationSeconds: SECONDS });
      const failed = result.non2xx + result.errors + result.timeouts;
      runs.push({
        group: route.name,
        subject: 'starsgate',
        ratePerSecond: rate,
        achievedPerSecond: result.achievedRate,
        failed,
        latencyMs: result.latencyMs,
        sendLagMs: result.sendLagMs,
      });
      const served = failed === 0 && result.latencyMs.p99 < SERVED_P99_MS;
      if (served) highestServed.set(route.name, Math.max(highestServed.get(route.name) ?? 0, rate));
      const line = `  ${route.name.padEnd(28)} ${String(rate).padStart(5)}/s   p50 ${ms(result.latencyMs.p50)} ms   p99 ${ms(result.latencyMs.p99)} ms   p99.9 ${ms(result.latencyMs.p999)} ms   max ${ms(result.latencyMs.max)} ms   ${failed ? `${failed} failed` : 'all 2xx'}   (generator lag p99 ${result.sendLagMs.p99.toFixed(2)} ms)`;
      lines.push(line);
      process.stdout.write(`${line}\n`);
    }
  }

  const targets: BenchTarget[] = [];
  const postAtTarget = runs.find((run) => run.group === routes[0]!.name && run.ratePerSecond === POST_TARGET.rate);
  if (postAtTarget) {
    const p99 = (postAtTarget.latencyMs as OpenLoopResult['latencyMs']).p99;
    targets.push({
      name: `POST /api/v1/purchases p99 at ${POST_TARGET.rate}/s, open loop`,
      target: `≤ ${POST_TARGET.p99Ms} ms`,
      value: `${p99.toFixed(1)} ms`,
      met: p99 <= POST_TARGET.p99Ms && postAtTarget.failed === 0,
    });
  }
  process.stdout.write('\n');
  for (const route of routes) {
    const rate = highestServed.get(route.name);
    process.stdout.write(
      `  ${route.name.padEnd(28)} highest rate measured with p99 < ${SERVED_P99_MS} ms: ${rate ? `${rate}/s` : `none of ${RATES.join(', ')}`}\n`,
    );
  }
  for (const target of targets)
    process.stdout.write(
      `  ${target.name}: ${target.value} (target ${target.target}: ${target.met ? 'meets' : 'MISSES'})\n`,
    );

  const written = writeBenchJson({
    bench: 'open-loop',
    startedAt,
    settings: { rates: RATES, durationSeconds: SECONDS, warmupSeconds: WARMUP_SECONDS, servedP99Ms: SERVED_P99_MS },
    runs,
    targets,
    extra: { highestServedRate: Object.fromEntries(highestServed) },
  });
  if (written) process.stdout.write(`  JSON written to ${written}\n`);
  await bench.close();
  await sandbox.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
