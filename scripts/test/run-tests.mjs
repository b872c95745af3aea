#!/usr/bin/env node
/**
 * The tests step of `npm test`: every workspace's `test` task and the root's cross-cutting suites
 * (`test:root`, `test:security`) through turbo, so an unchanged workspace's tests come from turbo's
 * cache, then a table of each task's time from turbo's run summary. Exits with turbo's code.
 *   TEST_CONCURRENCY  how many jest runs at once (default 4; each has 2 workers, test:security 3,
 *                     and every worker needs a Redis database of its own, 15 at most: jest.redis-database.js)
 * Extra arguments go to turbo (e.g. --filter=@starsgate/worker, --force).
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { printTimeTable } from './time-table.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const runsDir = path.join(root, '.turbo', 'runs');
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const started = Date.now();

const turbo = spawn(
  process.execPath,
  [
    path.join(root, 'node_modules/turbo/bin/turbo'),
    'run',
    'test',
    'test:root',
    'test:security',
    `--concurrency=${concurrency}`,
    '--summarize',
    // Every workspace's tests run even when another's fail, as one jest run did: all failures at once.
    '--continue=dependencies-successful',
    '--output-logs=new-only',
    '--log-order=grouped',
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: 'inherit', env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' } },
);

turbo.on('exit', (code, signal) => {
  const summaries = existsSync(runsDir)
    ? readdirSync(runsDir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => path.join(runsDir, name))
        .filter((file) => statSync(file).mtimeMs >= started)
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    : [];
  if (summaries[0]) printTimeTable(summaries[0], (Date.now() - started) / 1000);
  else process.stdout.write('\n(no turbo run summary found: no time table)\n');
  process.exit(code ?? (signal ? 1 : 0));
});
