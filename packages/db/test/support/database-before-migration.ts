import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_FOLDER } from '../../src/migrate';
import { TEST_DATABASE_ADMIN_URL, testDatabaseName } from '../../src/testing';

/** An empty throw-away database and the migrations as they were before `tag`, to test `tag` on old rows. */
export interface DatabaseBeforeMigration {
  url: string;
  /** A copy of the migrations folder whose journal stops just before `tag`. */
  earlierMigrations: string;
  drop(): Promise<void>;
}

async function adminQuery(sql: string): Promise<void> {
  const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

export async function databaseBeforeMigration(tag: string): Promise<DatabaseBeforeMigration> {
  const name = testDatabaseName();
  const target = new URL(TEST_DATABASE_ADMIN_URL);
  target.pathname = `/${name}`;
  const earlierMigrations = mkdtempSync(path.join(tmpdir(), 'starsgate-migrations-'));
  cpSync(MIGRATIONS_FOLDER, earlierMigrations, { recursive: true });
  const journalPath = path.join(earlierMigrations, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const index = journal.entries.findIndex((entry) => entry.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  await adminQuery(`CREATE DATABASE "${name}"`);
  return {
    url: target.toString(),
    earlierMigrations,
    async drop() {
      rmSync(earlierMigrations, { recursive: true, force: true });
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
