/**
 * CPU profiles of the stack's own processes for bench:cost: every gateway and worker is started
 * with `--cpu-prof` (NODE_OPTIONS), each writes <dir>/CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile
 * when it exits, and the samples of a window (the paced run, or spawn → ready) become a flame
 * graph and a table of the frames with the most self time.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { svgToPng } from '../report/charts';
import { selfTimeByPackage, type PackageShare } from './profile-packages';
import {
  flameGraphSvg,
  summarizeProfile,
  type CpuProfile,
  type SampleWindow,
  type SelfTimeRow,
} from '../report/flamegraph';

export const profilingOptions = (dir: string) => ({ NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}` });

/** Now, in the time base of a .cpuprofile (CLOCK_MONOTONIC, µs). */
export const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

export interface ProcessProfileRecord {
  process: string;
  phase: string;
  samples: number;
  busyMs: number;
  idleMs: number;
  top: SelfTimeRow[];
  /** Self time by npm package, our bundle, Node and V8. */
  packages: PackageShare[];
  flameGraph: string;
  folded: string;
}

function profileOf(dir: string, pid: number): CpuProfile | undefined {
  const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile') && name.split('.').includes(String(pid)));
  return file ? (JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as CpuProfile) : undefined;
}

/**
 * Summarizes the profile `pid` wrote into `dir` over `window`, writes <name>-flamegraph.png and
 * <name>.folded into `chartDir`; undefined when that process wrote none (killed, or not profiled).
 */
export function renderProcessProfile(options: {
  dir: string;
  pid: number;
  window: SampleWindow;
  process: string;
  phase: string;
  title: string;
  chartDir: string;
  /** The files' base name and their path as the report links them (relative to docs/). */
  name: string;
  root: string;
}): ProcessProfileRecord | undefined {
  const profile = profileOf(options.dir, options.pid);
  if (!profile) return undefined;
  const summary = summarizeProfile(profile, { root: options.root, window: options.window, top: 15 });
  const busy = summary.sampledMicros - summary.idleMicros;
  const svg = flameGraphSvg(summary, {
    title: options.title,
    subtitle: `${summary.samples} samples, busy ${(busy / 1e6).toFixed(2)} s of ${(summary.sampledMicros / 1e6).toFixed(1)} s (idle left out); width = time incl. callees`,
  });
  mkdirSync(options.chartDir, { recursive: true });
  writeFileSync(path.join(options.chartDir, `${options.name}-flamegraph.png`), svgToPng(svg, 1));
  writeFileSync(path.join(options.chartDir, `${options.name}.folded`), summary.folded);
  return {
    process: options.process,
    phase: options.phase,
    samples: summary.samples,
    busyMs: busy / 1000,
    idleMs: summary.idleMicros / 1000,
    top: summary.top,
    packages: selfTimeByPackage(profile, options.window),
    flameGraph: `benchmarks/${options.name}-flamegraph.png`,
    folded: `benchmarks/${options.name}.folded`,
  };
}
