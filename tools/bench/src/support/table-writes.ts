/**
 * Row writes per table of one database for bench:cost, from pg_stat_user_tables: the inserts,
 * updates (HOT among them) and deletes between two readings. A backend reports its counts when a
 * transaction ends and it has been a second or more since its last report, or when it exits; so the
 * closing reading is taken after the service's connections closed (the stack stopped), and the
 * opening one after an idle spell (nothing unreported from start-up).
 */
import { Client } from 'pg';

export interface TableWrites {
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
}

export type WritesByTable = Record<string, TableWrites>;

export async function tableWrites(databaseUrl: string): Promise<WritesByTable> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'bench-cost-stats' });
  await client.connect();
  try {
    const { rows } = await client.query<{
      table: string;
      inserted: string;
      updated: string;
      hot: string;
      deleted: string;
    }>(
      `SELECT schemaname || '.' || relname AS table, n_tup_ins AS inserted, n_tup_upd AS updated,
              n_tup_hot_upd AS hot, n_tup_del AS deleted
         FROM pg_stat_user_tables`,
    );
    return Object.fromEntries(
      rows.map((row) => [
        row.table.replace(/^public\./, ''),
        {
          inserted: Number(row.inserted),
          updated: Number(row.updated),
          hotUpdated: Number(row.hot),
          deleted: Number(row.deleted),
        },
      ]),
    );
  } finally {
    await client.end();
  }
}

/** `after - before` per table, tables without writes left out, most updated first. */
export function writesBetween(before: WritesByTable, after: WritesByTable): WritesByTable {
  const zero: TableWrites = { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
  const rows = Object.entries(after)
    .map(([table, now]): [string, TableWrites] => {
      const then = before[table] ?? zero;
      return [
        table,
        {
          inserted: now.inserted - then.inserted,
          updated: now.updated - then.updated,
          hotUpdated: now.hotUpdated - then.hotUpdated,
          deleted: now.deleted - then.deleted,
        },
      ];
    })
    .filter(([, w]) => w.inserted + w.updated + w.deleted > 0)
    .sort((a, b) => b[1].updated - a[1].updated || b[1].inserted - a[1].inserted);
  return Object.fromEntries(rows);
}

export function totalWrites(writes: WritesByTable): TableWrites {
  const total: TableWrites = { inserted: 0, updated: 0, hotUpdated: 0, deleted: 0 };
  for (const w of Object.values(writes)) {
    total.inserted += w.inserted;
    total.updated += w.updated;
    total.hotUpdated += w.hotUpdated;
    total.deleted += w.deleted;
  }
  return total;
}
