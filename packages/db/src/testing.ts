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

const TEST_DATABASES = Symbol.for('starsgate.testDatabases');

/**
 * The test file's databases not dropped yet: test/jest/environment.js drops what is left when the file
 * ends (a failed beforeAll, a forgotten drop). Every `starsgate_test_*` database goes through here.
 */
export function testDatabaseRegistry(): Set<string> {
  const holder = globalThis as { [TEST_DATABASES]?: Set<string> };
  return (holder[TEST_DATABASES] ??= new Set());
}

/** A name for a throw-away database, registered for the drop at the end of the test file. */
export function testDatabaseName(): string {
  const name = `starsgate_test_${randomBytes(6).toString('hex')}`;
  testDatabaseRegistry().add(name);
  return name;
}

/** A fresh, migrated database per test file, so suites run in parallel without sharing rows. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const name = testDatabaseName();
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
        testDatabaseRegistry().delete(name);
      } finally {
        await admin.end();
      }
    },
  };
}

/** How synthetic purchases are spread: most complete, a few are open cases; many recipients and wallets, as in production. */
export const SYNTHETIC = {
  /** Row i: `reconciliation_required` when i % 200 = 0, failed at 1, queued 2, preparing 3, confirming 4, else completed. */
  rareStatuses: ['reconciliation_required', 'failed', 'queued', 'preparing', 'confirming'],
  /** Row i's recipient: `@user<i % 997>` (the case of `@User` for odd i % 997). */
  username: (i: number) => `@${i % 2 === 1 ? 'User' : 'user'}${i % 997}`,
  /** Row i's payer wallet: raw `0:` + (i % 499) in 64 hex digits. */
  wallet: (i: number) => `0:${(i % 499).toString(16).padStart(64, '0')}`,
  /** Row i is created at this instant + floor(i / 2) µs: pairs share a timestamp. */
  createdFrom: '2026-01-01T00:00:00Z',
} as const;

/**
 * `count` purchases (rows `offset`…) written straight into the table (no secret, no event), spread
 * as SYNTHETIC says; two rows per microsecond of `created_at`, so pagination must order by
 * (created_at, id) with the database's full precision.
 */
export async function insertSyntheticPurchases(
  pool: { query(text: string, values?: unknown[]): Promise<unknown> },
  count: number,
  offset = 0,
): Promise<void> {
  await pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                            payment_method, seed_format, wallet_address, step_started_at, created_at, updated_at, completed_at)
     SELECT gen_random_uuid(), 'synthetic-' || i, 'synthetic-payer', md5(i::text), 'k1', status,
            CASE WHEN i % 5 = 0 THEN 'premium' ELSE 'stars' END,
            '@' || CASE WHEN i % 2 = 1 THEN 'User' ELSE 'user' END || (i % 997),
            CASE WHEN i % 5 = 0 THEN 3 ELSE 50 + i % 100 END,
            CASE WHEN i % 3 = 0 THEN 'usdt' ELSE 'gram' END, 'bip39_12',
            '0:' || lpad(to_hex(i % 499), 64, '0'),
            t, t, t, CASE WHEN status IN ('completed', 'failed') THEN t END
     FROM generate_series($1::int, $1::int + $2::int - 1) AS i,
          LATERAL (SELECT $3::timestamptz + (i / 2) * interval '1 microsecond' AS t,
                          CASE WHEN i % 200 < 5 THEN ($4::text[])[1 + i % 200] ELSE 'completed' END AS status) AS row`,
    [offset, count, SYNTHETIC.createdFrom, SYNTHETIC.rareStatuses],
  );
}
