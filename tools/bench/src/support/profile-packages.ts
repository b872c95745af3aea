/**
 * Self time of a CPU profile grouped by where the code lives: an npm package (by its node_modules
 * directory, scoped names kept whole), a file of ours (the built bundle or a source file), Node's
 * own modules, or V8 (GC, the compiler, program). For bench:cost's profile summary and
 * `tsx tools/bench/src/profile-summary.ts <file.cpuprofile>…`.
 */
import type { CpuProfile, SampleWindow } from '../report/flamegraph';

export interface PackageShare {
  owner: string;
  selfMicros: number;
  share: number;
}

export function ownerOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? `v8 ${functionName}` : 'node (native)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0]!;
  const at = url.lastIndexOf('node_modules/');
  if (at >= 0) {
    const [first, second] = url.slice(at + 'node_modules/'.length).split('/');
    return first!.startsWith('@') ? `${first}/${second}` : first!;
  }
  const match = /(apps|packages|tools)\/([^/]+)\//.exec(url);
  return match ? `starsgate ${match[1]}/${match[2]}` : url.replace(/^file:\/\//, '');
}

export function selfTimeByPackage(profile: CpuProfile, window?: SampleWindow): PackageShare[] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  let now = profile.startTime;
  for (let i = 0; i < samples.length; i += 1) {
    now += deltas[i] ?? 0;
    if (window && (now < window.fromMicros || now > window.toMicros)) continue;
    const node = byId.get(samples[i]!)!;
    if (node.callFrame.functionName === '(idle)') continue;
    const owner = ownerOf(node.callFrame.url, node.callFrame.functionName);
    totals.set(owner, (totals.get(owner) ?? 0) + Math.max(0, deltas[i + 1] ?? deltas[i] ?? 0));
  }
  const busy = [...totals.values()].reduce((a, b) => a + b, 0);
  return [...totals]
    .map(([owner, selfMicros]) => ({ owner, selfMicros, share: busy ? selfMicros / busy : 0 }))
    .sort((a, b) => b.selfMicros - a.selfMicros);
}
