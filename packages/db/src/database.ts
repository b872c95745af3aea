import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import * as schema from './schema';
import { UnnamedStatementClient } from './unnamed-statement-client';

export type Database = NodePgDatabase<typeof schema> & { $client: Pool };

export interface DatabaseHandle {
  db: Database;
  pool: Pool;
  close(): Promise<void>;
}

export function connectDatabase(
  url: string,
  options: {
    max?: number;
    applicationName?: string;
    lockTimeoutMs?: number;
    onError?: (error: Error) => void;
    /**
     * `url` is a pooler in transaction mode (DATABASE_POOLER=transaction): statements go unnamed
     * (unnamed-statement-client.ts), and no session setting is sent at connect, which PgBouncer
     * refuses ("unsupported startup parameter") and could not keep per client anyway: the pooler's
     * `connect_query` sets them on its server connections (docs/deployment.md "Connection budget").
     */
    transactionPooler?: boolean;
  } = {},
): DatabaseHandle {
  const pool = new Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'starsgate',
    ...(options.transactionPooler
      ? { Client: UnnamedStatementClient }
      : {
          // A transaction never waits on a network call; keep stuck ones from holding locks for long.
          idle_in_transaction_session_timeout: 30_000,
          // Bounds any wait on a row or index lock (e.g. two requests with one idempotency key).
          ...(options.lockTimeoutMs ? { lock_timeout: options.lockTimeoutMs } : {}),
        }),
  });
  // An idle client dropped by the server (restart, failover) must not crash the process: the pool
  // replaces it on the next checkout.
  pool.on('error', (error) => options.onError?.(error));
  const db = drizzle(pool, { schema });
  return {
    db,
    pool,
    close: () => pool.end(),
  };
}
