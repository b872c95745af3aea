/**
 * npm run bench:gateway — the gateway's own cost, beside reference servers run by the same process
 * and measured in the same run (autocannon in its own process), at each of BENCH_CONNECTIONS
 * (default 64):
 *   GET  /api/v1/purchases/:id   vs  GET /bare:  at 64 ≥ 90 % of bare's throughput, p99 ≤ 1.2× bare's
 *        (a GET already outruns a plain primary-key SELECT, so the bare handler is its reference)
 *   POST /api/v1/purchases       vs  POST /floor: at 64 ≥ 85 % of the floor's throughput, p99 ≤ 1.25×
 *        the floor's. The floor (support/floor-server.ts) is the least work a durable, idempotent
 *        intake can do: one INSERT … ON CONFLICT DO NOTHING RETURNING into a copy of `purchases`, one
 *        BullMQ add, a 202. The bare handler stays in the table as the ceiling of Node + Express.
 * All servers are warmed up first; each comparison then runs BENCH_ROUNDS times (default 1), the
 * references and the gateway alternately, and the round with the median throughput ratio is kept.
 * Then wallet resolution: TON-native 24-word resolves per second, and the latency of GETs running
 * at the same time (key derivation must not stall the event loop).
 * BENCH_JSON_OUT=<file> also writes the figures as JSON (bench/support/bench-json.ts).
 */
import { loadavg } from 'node:os';
import { mnemonicNew } from '@ton/crypto';
import type { Result as AutocannonResult } from 'autocannon';
import { connectionCounts, httpRun, writeBenchJson, type BenchRun, type BenchTarget } from './support/bench-json';
import { bareExpressApp, listen, measure, startBenchGateway, DURATION } from './support/harness';
import { createFloorTable, floorApp } from './support/floor-server';
import { startRemoteSandbox } from './support/remote-sandbox';
import { starsOrderJson } from './support/stars-order';

const CONNECTIONS = connectionCounts([64]);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
/** BENCH_GROUPS=GET or POST measures one of the two (default both). */
const GROUPS = (process.env.BENCH_GROUPS ?? 'GET,POST').split(',').map((name) => name.trim().toUpperCase());
/** The connection count the targets are stated at. */
const TARGET_CONNECTIONS = 64;

type Reference = 'bare' | 'floor';

interface Group {
  name: string;
  /** What the targets compare the gateway with; every reference listed in `references` is measured. */
  reference: Reference;
  throughputTarget: number;
  p99RatioTarget: number;
  references: Partial<Record<Reference, (connections: number) => Record<string, unknown>>>;
  ours: (connections: number) => Record<string, unknown>;
}

interface Pair {
  references: Partial<Record<Reference, AutocannonResult>>;
  ours: AutocannonResult;
  throughputRatio: number;
  p99Ratio: number;
}

function load(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

async function measurePair(group: Group, connections: number): Promise<Pair> {
  const pairs: Pair[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const suffix = ROUNDS > 1 ? ` #${round}` : '';
    const references: Pair['references'] = {};
    for (const [subject, options] of Object.entries(group.references) as Array<[Reference, Group['ours']]>)
      references[subject] = await measure(
        `${group.name} ${subject}, ${connections} conn${suffix}`,
        options(connections),
      );
    const ours = await measure(`${group.name} starsgate, ${connections} conn${suffix}`, group.ours(connections));
    const reference = references[group.reference]!;
    pairs.push({
      references,
      ours,
      throughputRatio: ours.requests.average / reference.requests.average,
      p99Ratio: ours.latency.p99 / Math.max(reference.latency.p99, 1),
    });
  }
  pairs.sort((a, b) => a.throughputRatio - b.throughputRatio);
  return pairs[Math.floor((pairs.length - 1) / 2)] as Pair;
}

function targetsOf(group: Group, pair: Pair): BenchTarget[] {
  const reference = pair.references[group.reference]!;
  return [
    {
      name: `${group.name} throughput vs ${group.reference} at ${TARGET_CONNECTIONS} connections`,
      target: `≥ ${Math.round(group.throughputTarget * 100)} %`,
      value: `${(pair.throughputRatio * 100).toFixed(1)} %`,
      met: pair.throughputRatio >= group.throughputTarget,
    },
    {
      name: `${group.name} p99 vs ${group.reference} p99 at ${TARGET_CONNECTIONS} connections`,
      target: `≤ ${group.p99RatioTarget}×`,
      value: `${pair.p99Ratio.toFixed(2)}× (${pair.ours.latency.p99} ms vs ${reference.latency.p99} ms)`,
      met: pair.p99Ratio <= group.p99RatioTarget,
    },
  ];
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = load();
  const sandbox = await startRemoteSandbox({ seed: 'bench-gateway' });
  const bench = await startBenchGateway({
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    USDT_MASTER_ADDRESS: sandbox.usdtMaster.toString(),
  });
  const bare = await listen(bareExpressApp());
  await createFloorTable(bench.database.pool);
  const floor = await listen(floorApp(bench.database.pool, bench.queue));
  process.stdout.write(
    `bench:gateway — ${CONNECTIONS.join(', ')} connections, ${DURATION} s per run, ${ROUNDS} round(s), Node ${process.version}, load average ${loadBefore}\n\n`,
  );

  const warm = await fetch(`${bench.url}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: starsOrderJson(`bench-${process.pid}-warm`),
  });
  const { status_url: statusUrl } = (await warm.json()) as { status_url: string };

  const post = { method: 'POST', headers: { 'content-type': 'application/json' } };
  const allGroups: Group[] = [
    {
      name: 'GET /api/v1/purchases/:id',
      reference: 'bare',
      throughputTarget: 0.9,
      p99RatioTarget: 1.2,
      references: { bare: (connections) => ({ url: `${bare.url}/bare`, connections }) },
      ours: (connections) => ({ url: `${bench.url}${statusUrl}`, connections }),
    },
    {
      name: 'POST /api/v1/purchases',
      reference: 'floor',
      throughputTarget: 0.85,
      p99RatioTarget: 1.25,
      // autocannon replaces `[<id>]` with a unique id per request: every POST is a new order.
      references: {
        bare: (connections) => ({ ...post, url: `${bare.url}/bare`, connections, body: starsOrderJson('bench-bare') }),
        floor: (connections) => ({
          ...post,
          url: `${floor.url}/floor`,
          connections,
          idReplacement: true,
          body: starsOrderJson('floor-[<id>]'),
        }),
      },
      ours: (connections) => ({
        ...post,
        url: `${bench.url}/api/v1/purchases`,
        connections,
        idReplacement: true,
        body: starsOrderJson('bench-[<id>]'),
      }),
    },
  ];

  const groups = allGroups.filter((group) => GROUPS.some((wanted) => group.name.startsWith(wanted)));

  if (WARMUP_SECONDS > 0) {
    process.stdout.write(`warm-up (${WARMUP_SECONDS} s each, not reported):\n`);
    for (const group of groups) {
      for (const [subject, options] of Object.entries(group.references))
        await measure(`${group.name} ${subject}`, { ...options(TARGET_CONNECTIONS), duration: WARMUP_SECONDS });
      await measure(`${group.name} starsgate`, { ...group.ours(TARGET_CONNECTIONS), duration: WARMUP_SECONDS });
    }
    process.stdout.write('\n');
  }

  const runs: BenchRun[] = [];
  const targets: BenchTarget[] = [];
  const summary: string[] = [];
  for (const connections of CONNECTIONS) {
    for (const group of groups) {
      const pair = await measurePair(group, connections);
      for (const [subject, result] of Object.entries(pair.references))
        runs.push(httpRun(group.name, subject, connections, result));
      runs.push(httpRun(group.name, 'starsgate', connections, pair.ours));
      const reference = pair.references[group.reference]!;
      const line = `  ${`${group.name}, ${connections} conn`.padEnd(40)} ${(pair.throughputRatio * 100).toFixed(1).padStart(5)} % of ${group.reference}   p99 ${pair.ours.latency.p99} ms vs ${reference.latency.p99} ms = ${pair.p99Ratio.toFixed(2)}×`;
      if (connections !== TARGET_CONNECTIONS) {
        summary.push(line);
        continue;
      }
      const [throughput, p99] = targetsOf(group, pair) as [BenchTarget, BenchTarget];
      targets.push(throughput, p99);
      const verdict = (target: BenchTarget) => `${target.target}: ${target.met ? 'meets' : 'MISSES'}`;
      summary.push(`${line}   (targets ${verdict(throughput)}; ${verdict(p99)})`);
    }
  }
  process.stdout.write(`\n${summary.join('\n')}\n`);

  // Wallet resolution: 24-word seeds run 100,000 PBKDF2 rounds each; distinct seeds defeat the cache.
  const seeds = await Promise.all(Array.from({ length: 50 }, async () => (await mnemonicNew(24)).join(' ')));
  const started = Date.now();
  const resolving = Promise.all(
    seeds.map((seed) =>
      fetch(`${bench.url}/api/v1/wallets/resolve`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seed }),
      }),
    ),
  );
  const getsDuring = await measure('GET purchase during 50 resolves', {
    url: `${bench.url}${statusUrl}`,
    connections: 8,
    duration: 2,
  });
  const responses = await resolving;
  const seconds = (Date.now() - started) / 1000;
  const ok = responses.filter((response) => response.status === 200).length;
  process.stdout.write(
    `\n  wallet resolve (24-word): ${ok}/50 ok in ${seconds.toFixed(2)} s = ${(ok / seconds).toFixed(1)} resolves/s; concurrent GET p50 ${getsDuring.latency.p50} ms, p99 ${getsDuring.latency.p99} ms\n`,
  );
  const loadAfter = load();
  process.stdout.write(`  load average before ${loadBefore}, after ${loadAfter}\n`);

  const written = writeBenchJson({
    bench: 'gateway',
    startedAt,
    settings: { durationSeconds: DURATION, connections: CONNECTIONS, rounds: ROUNDS, warmupSeconds: WARMUP_SECONDS },
    runs,
    targets,
    extra: {
      loadAverage: { before: loadBefore, after: loadAfter },
      walletResolve: {
        seeds: 50,
        ok,
        seconds,
        resolvesPerSecond: ok / seconds,
        concurrentGetLatencyMs: { p50: getsDuring.latency.p50, p99: getsDuring.latency.p99 },
      },
    },
  });
  if (written) process.stdout.write(`  JSON written to ${written}\n`);

  bare.server.close();
  floor.server.close();
  await bench.close();
  await sandbox.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
