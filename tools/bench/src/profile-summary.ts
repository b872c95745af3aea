/**
 * tsx tools/bench/src/profile-summary.ts <file.cpuprofile>… [--top N]
 * Prints each profile's busy time, its functions with the most self time and its self time by
 * package (npm package, our bundle, Node, V8): a quick read of a `--cpu-prof` file, such as the
 * ones BENCH_COST_PROFILE=1 leaves in the bench's log folder.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { summarizeProfile, type CpuProfile } from './report/flamegraph';
import { selfTimeByPackage } from './support/profile-packages';

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 20;
const ROOT = path.resolve(__dirname, '../../..');

if (args.length === 0) {
  process.stderr.write('usage: tsx tools/bench/src/profile-summary.ts <file.cpuprofile>… [--top N]\n');
  process.exit(2);
}
for (const file of args) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const summary = summarizeProfile(profile, { root: ROOT, top: TOP });
  const busyMs = (summary.sampledMicros - summary.idleMicros) / 1000;
  process.stdout.write(
    `${file}: busy ${busyMs.toFixed(0)} ms of ${(summary.sampledMicros / 1000).toFixed(0)} ms sampled\n  top self time:\n`,
  );
  for (const row of summary.top)
    process.stdout.write(
      `  ${(row.selfMicros / 1000).toFixed(1).padStart(9)} ms ${(row.selfShare * 100).toFixed(1).padStart(5)}%  ${row.name}  ${row.location}\n`,
    );
  process.stdout.write('  self time by package:\n');
  for (const row of selfTimeByPackage(profile).slice(0, TOP))
    process.stdout.write(
      `  ${(row.selfMicros / 1000).toFixed(1).padStart(9)} ms ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.owner}\n`,
    );
}
