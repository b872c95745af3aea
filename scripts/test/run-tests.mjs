#!/usr/bin/env node
/**
 * The tests step of `npm test`, through turbo, so an unchanged workspace's tests come from turbo's
 * cache, in two phases:
 *   1. every workspace's `test` task and the root's cross-cutting suites (`test:root`,
 *      `test:security`), several jest runs at once;
 *   2. the timing suites (`*.timing.test.ts`, the `test:timing` tasks): one suite at a time, once
 *      nothing else loads the machine, since each bounds how long something takes.
 * Then a table of each task's time from turbo's run summaries. Exits non-zero if either phase failed.
 *   TEST_CONCURRENCY  how many jest runs at once in phase 1 (default 4; each has 2 workers,
 *                     test:security 3, and every worker needs a Redis database of its own, 15 at
 *                     most: jest.redis-database.js)
 * Extra arguments go to turbo in both phases (e.g. --filter=@starsgate/worker, --force).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { printTimeTable } from './time-table.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const runsDir = path.join(root, '.turbo', 'runs');
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const started = Date.now();

/** One `turbo run` of the given tasks; resolves with its exit code and the run summary it wrote. */
function turboRun(tasks, concurrencyOfRun) {
  const startedAt = Date.now();
  const turbo = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/turbo/bin/turbo'),
      'run',
      ...tasks,
      `--concurrency=${concurrencyOfRun}`,
      '--summarize',
      // Every workspace's tests run even when another's fail, as one jest run did: all failures at once.
      '--continue=dependencies-successful',
      '--output-logs=new-only',
      '--log-order=grouped',
      ...process.argv.slice(2),
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  return new Promise((resolve) => {
    turbo.on('exit', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), summary: newestSummary(startedAt) }));
  });
}

function newestSummary(since) {
  if (!existsSync(runsDir)) return undefined;
  return readdirSync(runsDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(runsDir, name))
    .filter((file) => statSync(file).mtimeMs >= since)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
}

const suites = await turboRun(['test', 'test:root', 'test:security'], concurrency);
const timing = await turboRun(['test:timing'], 1);
const summaries = [suites.summary, timing.summary].filter(Boolean);
if (summaries.length > 0) printTimeTable(summaries, (Date.now() - started) / 1000);
else process.stdout.write('\n(no turbo run summary found: no time table)\n');
process.exit(suites.code !== 0 ? suites.code : timing.code);
