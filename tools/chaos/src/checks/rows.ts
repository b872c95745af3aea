/**
 * From the database: every 202 the driver got has its row (none lost), every row is final or
 * reconciliation_required (none stuck), outcomes by status, and why purchases failed or went to
 * reconciliation (error codes).
 */
import type pg from 'pg';
import type { Ledger } from '../ledger';
import { SETTLED_STATUSES } from '../settle';

export interface RowsReport {
  rows: number;
  byModeAndStatus: Record<string, Record<string, number>>;
  lost: string[];
  stuck: Array<{ id: string; status: string }>;
  reconciliationReasons: Record<string, number>;
  failureReasons: Record<string, number>;
  /** Rows the driver never got a 202 for (requests whose answer was lost: fine, but counted). */
  unknownRows: number;
}

export async function checkRows(pool: pg.Pool, ledger: Ledger): Promise<RowsReport> {
  const { rows } = await pool.query<{ id: string; mode: string; status: string; code: string | null }>(
    `SELECT id, mode, status, error->>'code' AS code FROM purchases`,
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  const accepted = [...ledger.purchases.values(), ...ledger.checkouts.values()];
  const acceptedSet = new Set(accepted);
  const report: RowsReport = {
    rows: rows.length,
    byModeAndStatus: {},
    lost: accepted.filter((id) => !byId.has(id)),
    stuck: rows.filter((r) => !SETTLED_STATUSES.includes(r.status)).map((r) => ({ id: r.id, status: r.status })),
    reconciliationReasons: {},
    failureReasons: {},
    unknownRows: rows.filter((r) => !acceptedSet.has(r.id)).length,
  };
  for (const row of rows) {
    const mode = row.mode === 'client_signed' ? 'checkouts' : 'purchases';
    const counts = (report.byModeAndStatus[mode] ??= {});
    counts[row.status] = (counts[row.status] ?? 0) + 1;
    const reason = `${mode}: ${row.code ?? 'no code'}`;
    if (row.status === 'reconciliation_required')
      report.reconciliationReasons[reason] = (report.reconciliationReasons[reason] ?? 0) + 1;
    if (row.status === 'failed' || row.status === 'expired')
      report.failureReasons[`${row.status} ${reason}`] = (report.failureReasons[`${row.status} ${reason}`] ?? 0) + 1;
  }
  return report;
}
