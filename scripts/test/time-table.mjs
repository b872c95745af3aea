/**
 * The per-workspace time table `npm test` prints at the end, from turbo run summaries
 * (`turbo run --summarize` writes .turbo/runs/<id>.json; npm test's two phases write one each):
 * each test task's wall time, whether it ran, came from the cache or failed, the slowest first.
 *   node scripts/test/time-table.mjs [.turbo/runs/<id>.json ...]   (default: the newest summary)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const TEST_TASKS = new Set(['test', 'test:root', 'test:security', 'test:timing']);

function outcomeOf(task) {
  if (task.cache?.status === 'HIT') return 'cached';
  if (task.execution?.exitCode !== 0) return 'FAILED';
  return 'ran';
}

function rowsOf(summary) {
  return summary.tasks
    .filter((task) => TEST_TASKS.has(task.task))
    .map((task) => ({
      name:
        task.package === '//'
          ? `(root) ${task.task}`
          : task.task === 'test'
            ? task.package
            : `${task.package} ${task.task}`,
      outcome: outcomeOf(task),
      seconds: task.execution ? (task.execution.endTime - task.execution.startTime) / 1000 : 0,
    }));
}

/** The table of one or more run summaries' test tasks; the wall time defaults to the summaries' span. */
export function printTimeTable(summaryFiles, wallSeconds) {
  const summaries = [summaryFiles].flat().map((file) => JSON.parse(readFileSync(file, 'utf8')));
  const rows = summaries.flatMap(rowsOf).sort((a, b) => b.seconds - a.seconds);
  const width = Math.max(9, ...rows.map((row) => row.name.length));
  const line = (name, outcome, time) => `${name.padEnd(width)}  ${outcome.padEnd(7)}  ${time.padStart(8)}`;
  const lines = [
    '',
    'test times (turbo run summary; cached tasks replay their logs)',
    line('workspace', 'result', 'seconds'),
    line('-'.repeat(width), '-'.repeat(7), '-'.repeat(8)),
    ...rows.map((row) => line(row.name, row.outcome, row.seconds.toFixed(1))),
    line('-'.repeat(width), '-'.repeat(7), '-'.repeat(8)),
    line(
      'all (wall)',
      `${rows.filter((row) => row.outcome === 'cached').length}/${rows.length} hit`,
      (
        wallSeconds ??
        (Math.max(...summaries.map((summary) => summary.execution.endTime)) -
          Math.min(...summaries.map((summary) => summary.execution.startTime))) /
          1000
      ).toFixed(1),
    ),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runsDir = path.resolve(import.meta.dirname, '../../.turbo/runs');
  const files = process.argv.slice(2);
  if (files.length === 0)
    files.push(
      readdirSync(runsDir)
        .filter((name) => name.endsWith('.json'))
        .map((name) => path.join(runsDir, name))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0],
    );
  printTimeTable(files);
}
