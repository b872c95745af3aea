/** What one `npm run bench` leaves in docs/benchmarks/results/, and reads back to write the report. */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { BenchResult } from '../support/bench-json';
import type { LoadSample, MachineInfo, Versions } from './machine';
import type { SelfTimeRow } from './flamegraph';

export const BENCH_NAMES = ['gateway', 'reads', 'pipeline', 'open-loop', 'cost'] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

export interface StepRecord {
  step: BenchName | 'profile';
  /** The Node release it ran on (`v24.21.0`); the primary runtime unless `beside` is set. */
  node?: string;
  /** Run again on the second runtime, for comparison. */
  beside?: boolean;
  command: string;
  env: Record<string, string>;
  seconds: number;
  exitCode: number | null;
  /** A bench can exit non-zero for a missed target and still have written its result. */
  resultWritten: boolean;
  loadBefore: LoadSample;
  loadAfter: LoadSample;
  error?: string;
}

export interface ProfileRecord {
  connections: number;
  seconds: number;
  warmupSeconds: number;
  requestsPerSecond: number;
  samples: number;
  sampledMs: number;
  idleMs: number;
  top: SelfTimeRow[];
  flameGraph: string;
  folded: string;
}

export interface RunMeta {
  startedAt: string;
  finishedAt: string;
  git: string;
  machine: MachineInfo;
  versions: Versions;
  loadBefore: LoadSample;
  loadAfter: LoadSample;
  settings: Record<string, string | number>;
  steps: StepRecord[];
  /** The Node release every bench ran on (the images' release), and the one some ran on again beside it. */
  runtimes?: { primary: string; beside?: string };
}

export interface ReportData {
  meta: RunMeta;
  results: Partial<Record<BenchName, BenchResult>>;
  /** The same benches run again on the second runtime (results/beside/). */
  beside: Partial<Record<BenchName, BenchResult>>;
  profile?: ProfileRecord;
  notes: Array<{ file: string; text: string }>;
}

function readJson<T>(file: string): T | undefined {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : undefined;
}

export function loadReportData(resultsDir: string, notesDir: string): ReportData {
  const meta = readJson<RunMeta>(path.join(resultsDir, 'run.json'));
  if (!meta) throw new Error(`${resultsDir}/run.json is missing: run \`npm run bench\` first`);
  const results: ReportData['results'] = {};
  // Only what this run ran: a result left from an earlier run would be mistaken for this one's.
  const ran = new Set(meta.steps.filter((step) => !step.beside).map((step) => step.step));
  for (const name of BENCH_NAMES.filter((bench) => ran.has(bench))) {
    const result = readJson<BenchResult>(path.join(resultsDir, `${name}.json`));
    if (result) results[name] = result;
  }
  const beside: ReportData['beside'] = {};
  const ranBeside = new Set(meta.steps.filter((step) => step.beside).map((step) => step.step));
  for (const name of BENCH_NAMES.filter((bench) => ranBeside.has(bench))) {
    const result = readJson<BenchResult>(path.join(resultsDir, 'beside', `${name}.json`));
    if (result) beside[name] = result;
  }
  const notes = existsSync(notesDir)
    ? readdirSync(notesDir)
        .filter((file) => file.endsWith('.md'))
        .sort()
        .map((file) => ({ file, text: readFileSync(path.join(notesDir, file), 'utf8') }))
    : [];
  const profile = ran.has('profile') ? readJson<ProfileRecord>(path.join(resultsDir, 'profile.json')) : undefined;
  return { meta, results, beside, profile, notes };
}
