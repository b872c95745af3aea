import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';

/** Beside the running file in a built bundle (dist/migrations), else the package's own folder. */
export const MIGRATIONS_FOLDER =
  [path.join(__dirname, 'migrations'), path.join(__dirname, '..', 'migrations')].find((folder) => existsSync(folder)) ??
  path.join(__dirname, '..', 'migrations');

/** Arbitrary constant: serialises migrations when the gateway and workers start together. */
const MIGRATION_LOCK_ID = 0x5747_4154;

/**
 * Another process created the database between our check and our CREATE: PostgreSQL says so with
 * 42P04 (duplicate_database) or, when both CREATEs run at the same instant, with 23505 from the
 * unique index on pg_database's names.
 */
function createdMeanwhile(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === '42P04' || code === '23505';
}

/** Creates the database named in the URL if it does not exist yet. */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL must name a database');
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
      } catch (error) {
        if (!createdMeanwhile(error)) throw error;
      }
    }
  } finally {
    await client.end();
  }
}

const UNDEFINED_DATABASE = '3D000';

/**
 * Whether every migration this build ships is applied, read without creating anything: the apps
 * connect as a DML-only role (docs/security.md, attack 13), which may not create the migrations'
 * schema or table even when they exist, so an up-to-date database must need no DDL at all.
 */
async function alreadyMigrated(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, application_name: 'starsgate-migrate' });
  try {
    await client.connect();
  } catch (error) {
    if ((error as { code?: string }).code === UNDEFINED_DATABASE) return false;
    throw error;
  }
  try {
    return await migrationsApplied(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database if needed and applies every pending migration under an advisory lock.
 * Nothing to apply: no DDL runs, so a service role without DDL rights passes.
 */
export async function migrateDatabase(url: string): Promise<void> {
  if (await alreadyMigrated(url)) return;
  await ensureDatabase(url);
  // One connection holds the advisory lock and runs the migrations.
  const client = new Client({ connectionString: url, application_name: 'starsgate-migrate' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    }
  } finally {
    await client.end();
  }
}

/**
 * What a service does on start: migrate, or, behind a transaction pooler (DATABASE_POOLER=transaction),
 * only check. Migrating needs one session (an advisory lock, drizzle's migration transaction, CREATE
 * DATABASE), which a pooler in transaction mode does not keep: migrate then runs apart, against
 * PostgreSQL directly (the migrate image or `npm run migrate`), before the services start.
 */
export async function migrateOrCheck(url: string, pooler: 'none' | 'transaction'): Promise<void> {
  if (pooler === 'none') return migrateDatabase(url);
  if (await alreadyMigrated(url)) return;
  throw new Error(
    'the database lacks migrations this release needs; with DATABASE_POOLER=transaction the service does not migrate through the pooler: run migrate with DATABASE_URL pointing at PostgreSQL directly, then start the service',
  );
}

function expectedMigrationCount(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  return journal.entries.length;
}

/** For readiness probes: true when every migration this build ships has been applied. */
export async function migrationsApplied(pool: {
  query: (sql: string) => Promise<{ rows: Array<{ count: string }> }>;
}): Promise<boolean> {
  try {
    const result = await pool.query('SELECT count(*)::text AS count FROM drizzle.__drizzle_migrations');
    return Number(result.rows[0]?.count ?? 0) >= expectedMigrationCount();
  } catch {
    return false;
  }
}
