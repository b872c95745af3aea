/**
 * tsx tools/bench/src/heap-summary.ts <file.heapsnapshot> [--top N]
 * What a V8 heap snapshot holds, by constructor (or node type for strings, code, arrays): count and
 * self size, largest first. A quick read of the snapshots `--heapsnapshot-signal` writes (outside
 * production: the services refuse those flags there, docs/security.md), as used for bench:cost's
 * memory figures.
 */
import { readFileSync } from 'node:fs';

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

const args = process.argv.slice(2);
const topAt = args.indexOf('--top');
const TOP = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 30;
if (args.length !== 1) {
  process.stderr.write('usage: tsx tools/bench/src/heap-summary.ts <file.heapsnapshot> [--top N]\n');
  process.exit(2);
}

const snapshot = JSON.parse(readFileSync(args[0]!, 'utf8')) as Snapshot;
const fields = snapshot.snapshot.meta.node_fields;
const types = snapshot.snapshot.meta.node_types[0];
const width = fields.length;
const typeAt = fields.indexOf('type');
const nameAt = fields.indexOf('name');
const sizeAt = fields.indexOf('self_size');
const groups = new Map<string, { count: number; bytes: number }>();
let total = 0;
for (let i = 0; i < snapshot.nodes.length; i += width) {
  const type = types[snapshot.nodes[i + typeAt]!]!;
  const name = snapshot.strings[snapshot.nodes[i + nameAt]!]!;
  const bytes = snapshot.nodes[i + sizeAt]!;
  const key = type === 'object' || type === 'closure' ? `${type} ${name}` : `(${type})`;
  const group = groups.get(key) ?? { count: 0, bytes: 0 };
  group.count += 1;
  group.bytes += bytes;
  groups.set(key, group);
  total += bytes;
}
process.stdout.write(`${args[0]}: ${(total / 1e6).toFixed(1)} MB in ${snapshot.nodes.length / width} nodes\n`);
for (const [key, group] of [...groups].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, TOP))
  process.stdout.write(
    `${(group.bytes / 1e6).toFixed(2).padStart(9)} MB ${String(group.count).padStart(9)}  ${key.slice(0, 100)}\n`,
  );
