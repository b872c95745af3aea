/**
 * `npm run fuzz`: the whole fuzz suite (tools/fuzz/test) with many more cases than `npm test` runs.
 * FUZZ_RUNS multiplies every property's CI case count (default 20); FUZZ_SEED picks the seed
 * (random unless given). Prints the seed first, so a failure can be replayed with
 * `FUZZ_SEED=<seed> FUZZ_RUNS=<runs> npm run fuzz`, and the cases run per property at the end.
 * Extra arguments go to jest (e.g. a file name to fuzz one suite).
 */
import { spawn } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../../..');
const seed = process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31 - 1));
const runs = process.env.FUZZ_RUNS ?? '20';
const folder = mkdtempSync(path.join(tmpdir(), 'starsgate-fuzz-'));
const summaryFile = path.join(folder, 'summary.txt');

process.stdout.write(
  `fuzz: seed ${seed}, FUZZ_RUNS ${runs} (replay: FUZZ_SEED=${seed} FUZZ_RUNS=${runs} npm run fuzz)\n`,
);
const started = Date.now();
const jest = spawn(
  process.execPath,
  [path.join(root, 'node_modules/jest/bin/jest.js'), 'tools/fuzz/test', ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, FUZZ_SEED: seed, FUZZ_RUNS: runs, FUZZ_SUMMARY_FILE: summaryFile },
  },
);
jest.on('exit', (code, signal) => {
  let summary: string;
  try {
    summary = readFileSync(summaryFile, 'utf8');
  } catch {
    summary = '(no property reported its cases)\n';
  }
  rmSync(folder, { recursive: true, force: true });
  const lines = summary.split('\n').filter((line) => line.length > 0 && !line.endsWith(`FUZZ_RUNS ${runs}`));
  const total = lines.reduce((sum, line) => sum + Number(/: (\d+) cases$/.exec(line)?.[1] ?? 0), 0);
  process.stdout.write(
    `\nfuzz summary (seed ${seed}, FUZZ_RUNS ${runs}, ${Math.round((Date.now() - started) / 1000)} s)\n${lines.join('\n')}\n` +
      `fuzz total: ${total} cases; ${code === 0 ? 'every property held' : `FAILED (jest ${signal ?? code}); replay with FUZZ_SEED=${seed} FUZZ_RUNS=${runs}`}\n`,
  );
  process.exit(code ?? 1);
});
