import type { Client } from 'pg';

/** Connections to the run's database by application_name, and how many of them are not idle. */
export type ConnectionCounts = Record<string, { total: number; busy: number }>;

export async function postgresConnections(client: Client, database: string): Promise<ConnectionCounts> {
  const { rows } = await client.query<{ application: string; total: number; busy: number }>(
    `SELECT coalesce(nullif(application_name, ''), '(unnamed)') AS application,
            count(*)::int AS total,
            count(*) FILTER (WHERE state IS DISTINCT FROM 'idle')::int AS busy
       FROM pg_stat_activity
      WHERE datname = $1 AND pid <> pg_backend_pid()
      GROUP BY 1`,
    [database],
  );
  return Object.fromEntries(rows.map((row) => [row.application, { total: row.total, busy: row.busy }]));
}
