import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connectDatabase, type DatabaseHandle } from './database';
import { migrateDatabase } from './migrate';

export const TEST_DATABASE_ADMIN_URL =
  process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase extends DatabaseHandle {
  url: string;
  /** Closes the pool and drops the database. */
  drop(): Promise<void>;
}

/** A fresh, migrated database per test file, so suites run in parallel without sharing rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `starsgate_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(TEST_DATABASE_ADMIN_URL);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  const handle = connectDatabase(url.toString(), { max: 20, lockTimeoutMs: 2_000 });
  return {
    ...handle,
    url: url.toString(),
    drop: async () => {
      await handle.close();
      const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.end();
      }
    },
  };
}
