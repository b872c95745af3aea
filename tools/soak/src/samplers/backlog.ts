import type { Client } from 'pg';
import { isTerminalStatus } from '@starsgate/domain';

export interface StatusCounts {
  /** Rows by status (purchases and checkouts together). */
  byStatus: Record<string, number>;
  /** Rows not in a final status: queued, in progress, or a checkout awaiting its signature. */
  open: number;
}

/** Read from PostgreSQL, the source of truth, not from the service's word. */
export async function statusCounts(client: Client): Promise<StatusCounts> {
  const { rows } = await client.query<{ status: string; count: number }>(
    'SELECT status, count(*)::int AS count FROM purchases GROUP BY status',
  );
  const byStatus = Object.fromEntries(rows.map((row) => [row.status, row.count]));
  const open = rows.filter((row) => !isTerminalStatus(row.status)).reduce((n, r) => n + r.count, 0);
  return { byStatus, open };
}
