/**
 * The machine-readable result every bench writes beside its printed table when BENCH_JSON_OUT
 * names a file; `npm run bench` (bench/report/) reads these to write docs/benchmarks.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Result as AutocannonResult } from 'autocannon';

export interface LatencyPercentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  mean: number;
  max: number;
}

/** One measurement. HTTP runs carry requestsPerSecond and latencyMs; other benches add their own fields. */
export interface BenchRun {
  group: string;
  subject: string;
  connections?: number;
  requestsPerSecond?: number;
  latencyMs?: LatencyPercentiles;
  [field: string]: unknown;
}

export interface BenchTarget {
  name: string;
  target: string;
  value: string;
  met: boolean;
}

export interface BenchResult {
  bench: string;
  startedAt: string;
  settings: Record<string, unknown>;
  runs: BenchRun[];
  targets: BenchTarget[];
  extra: Record<string, unknown>;
}

/** The baseline a run is compared with: subject `bare` (or any subject naming the bare handler). */
export function isBare(subject: string): boolean {
  return /\bbare\b/i.test(subject);
}

/** BENCH_CONNECTIONS as a list (`1,8,32`), or the bench's default. */
export function connectionCounts(fallback: number[]): number[] {
  const raw = process.env.BENCH_CONNECTIONS;
  if (!raw) return fallback;
  const counts = raw.split(',').map((part) => Number(part.trim()));
  if (counts.some((count) => !Number.isInteger(count) || count < 1))
    throw new Error(`BENCH_CONNECTIONS must list positive integers, got "${raw}"`);
  return counts;
}

export function httpRun(group: string, subject: string, connections: number, result: AutocannonResult): BenchRun {
  return {
    group,
    subject,
    connections,
    requestsPerSecond: result.requests.average,
    latencyMs: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      p999: result.latency.p99_9,
      mean: result.latency.average,
      max: result.latency.max,
    },
  };
}

/** Writes the result to BENCH_JSON_OUT if set; returns the path written, if any. */
export function writeBenchJson(result: BenchResult): string | undefined {
  const file = process.env.BENCH_JSON_OUT;
  if (!file) return undefined;
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  return file;
}
