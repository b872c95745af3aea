/**
 * The per-workspace time table `npm test` prints at the end, from a turbo run summary
 * (`turbo run --summarize` writes .turbo/runs/<id>.json): each test task's wall time, whether it
 * ran, came from the cache or failed, the slowest first.
 *   node scripts/test/time-table.mjs [.turbo/runs/<id>.json]   (default: the newest summary)
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const TEST_TASKS = new Set(['test', 'test:root', 'test:security']);

function outcomeOf(task) {
  if (task.cache?.status === 'HIT') return 'cached';
  if (task.execution?.exitCode !== 0) return 'FAILED';
  return 'ran';
}

function rowsOf(summary) {
  return summary.tasks
    .filter((task) => TEST_TASKS.has(task.task))
    .map((task) => ({
      name: task.package === '//' ? `(root) ${task.task}` : task.package,
      outcome: outcomeOf(task),
      seconds: task.execution ? (task.execution.endTime - task.execution.startTime) / 1000 : 0,
    }))
    .sort((a, b) => b.seconds - a.seconds);
}

export function printTimeTable(summaryFile, wallSeconds) {
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  const rows = rowsOf(summary);
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
      (wallSeconds ?? (summary.execution.endTime - summary.execution.startTime) / 1000).toFixed(1),
    ),
    '',
  ];
  process.stdout.write(lines.join('\n'));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const runsDir = path.resolve(import.meta.dirname, '../../.turbo/runs');
  const file =
    process.argv[2] ??
    readdirSync(runsDir)
      .filter((name) => name.endsWith('.json'))
      .map((name) => path.join(runsDir, name))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  printTimeTable(file);
}
