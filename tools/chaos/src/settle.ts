/** Waits until every row is final (`completed`, `failed`, `expired`) or `reconciliation_required`. */
import type pg from 'pg';
import { sleep } from '@starsgate/stack';

export const SETTLED_STATUSES = ['completed', 'failed', 'expired', 'reconciliation_required'];

export async function openRowCount(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ status: string; n: number }>(
    `SELECT status, count(*)::int AS n FROM purchases WHERE status <> ALL($1) GROUP BY status`,
    [SETTLED_STATUSES],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export async function waitSettled(
  pool: pg.Pool,
  deadline: number,
  log: (line: string) => void,
): Promise<{ settled: boolean; waitedMs: number }> {
  const started = Date.now();
  let lastLog = 0;
  for (;;) {
    let open: Record<string, number> | undefined;
    try {
      open = await openRowCount(pool);
    } catch {
      // PostgreSQL restarting: ask again
    }
    if (open && Object.keys(open).length === 0) return { settled: true, waitedMs: Date.now() - started };
    if (Date.now() > deadline) return { settled: false, waitedMs: Date.now() - started };
    if (Date.now() - lastLog > 30_000) {
      lastLog = Date.now();
      log(`waiting for final statuses: ${JSON.stringify(open ?? 'database unavailable')}`);
    }
    await sleep(3_000);
  }
}
