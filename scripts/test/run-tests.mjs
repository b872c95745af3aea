#!/usr/bin/env node
/**
 * The tests step of `npm test`, through turbo, so an unchanged workspace's tests come from turbo's
 * cache, in two phases:
 *   1. every workspace's `test` task and the root's cross-cutting suites (`test:root`,
 *      `test:security`), several jest runs at once, in two turbo runs side by side: the three
 *      longest (the worker's tests, test:root, test:security) in one, started at once, and the other
 *      workspaces' in the other. One turbo run starts its ready tasks in an order of its own, and a
 *      long task started last ended the phase a minute late on this 2-core machine.
 *   2. the timing suites (`*.timing.test.ts`, the `test:timing` tasks), once nothing else loads the
 *      machine, since each bounds how long something takes: two at a time, one per core (each kept
 *      its bound by a wide margin so, where four jest runs at once broke them).
 * Then a table of each task's time from turbo's run summaries. Exits non-zero if either phase failed.
 *   TEST_CONCURRENCY  how many jest runs of the other workspaces at once in phase 1, beside the
 *                     three long ones (default 2; each has 2 workers, the worker's and
 *                     test:security 3, and every worker needs a Redis database of its own, 15 at
 *                     most: test/jest/redis-database.js)
 * Extra arguments go to turbo in both phases (e.g. --force); with a --filter, phase 1 is one turbo
 * run of what it selects.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { printTimeTable } from './time-table.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const runsDir = path.join(root, '.turbo', 'runs');
const concurrency = Number(process.env.TEST_CONCURRENCY ?? '2');
const turboArgs = process.argv.slice(2);
const started = Date.now();

/** One `turbo run` of the given tasks; resolves with its exit code. */
function turboRun(tasks, concurrencyOfRun, filters = []) {
  const turbo = spawn(
    process.execPath,
    [
      path.join(root, 'node_modules/turbo/bin/turbo'),
      'run',
      ...tasks,
      `--concurrency=${concurrencyOfRun}`,
      '--summarize',
      // `npm test` type-checks and builds first: the test tasks alone, none waiting for a slot behind
      // another task's (cached) dependencies, and no cached build restored under a running test.
      '--only',
      // Every workspace's tests run even when another's fail, as one jest run did: all failures at once.
      '--continue=dependencies-successful',
      '--output-logs=new-only',
      '--log-order=grouped',
      ...filters,
      ...turboArgs,
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
  );
  return new Promise((resolve) => {
    turbo.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** The run summaries turbo wrote since `since`, oldest first. */
function summariesSince(since) {
  if (!existsSync(runsDir)) return [];
  return readdirSync(runsDir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => path.join(runsDir, name))
    .filter((file) => statSync(file).mtimeMs >= since)
    .sort((a, b) => statSync(a).mtimeMs - statSync(b).mtimeMs);
}

const LONG_TASKS = ['--filter=@starsgate/worker', '--filter=//'];
const suites = turboArgs.some((arg) => arg.startsWith('--filter'))
  ? [await turboRun(['test', 'test:root', 'test:security'], concurrency + 3)]
  : await Promise.all([
      turboRun(['test', 'test:root', 'test:security'], 3, LONG_TASKS),
      turboRun(['test'], concurrency, ['--filter=!@starsgate/worker', '--filter=!//']),
    ]);
const timing = await turboRun(['test:timing'], 2);
const summaries = summariesSince(started);
if (summaries.length > 0) printTimeTable(summaries, (Date.now() - started) / 1000);
else process.stdout.write('\n(no turbo run summary found: no time table)\n');
process.exit(suites.find((code) => code !== 0) ?? timing);
