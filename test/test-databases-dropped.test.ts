/**
 * Tests left their throw-away databases (`starsgate_test_*`) behind whenever a suite failed before
 * its drop (issue 40 §1). test/jest/environment.js drops what a test file left when the file ends: a
 * jest of its own runs a file that creates a database and never drops it, once with that
 * environment (the database is gone) and once with jest's plain one (it stays: what happened before).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { TEST_DATABASE_ADMIN_URL } from '@starsgate/db/testing';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '..');
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'starsgate-leftover-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Runs the fixture under `environment`; the name of the database it left. */
function runFixture(environment: string): string {
  const nameFile = path.join(scratch, `${path.basename(environment)}.name`);
  const config = {
    rootDir: ROOT,
    roots: ['<rootDir>/test/support'],
    testMatch: ['**/leftover-database.fixture.ts'],
    transform: { '^.+\\.ts$': path.join(ROOT, 'test/jest/esbuild-transform.js') },
    testEnvironment: environment,
  };
  const run = spawnSync(
    process.execPath,
    [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--config', JSON.stringify(config), '--ci', '--silent'],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, LEFTOVER_DATABASE_FILE: nameFile } },
  );
  if (run.status !== 0) throw new Error(`the fixture's jest failed:\n${run.stderr}`);
  return readFileSync(nameFile, 'utf8');
}

async function databaseExists(name: string): Promise<boolean> {
  const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  try {
    return (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
  } finally {
    await admin.end();
  }
}

test('a database a test file did not drop is dropped when the file ends', async () => {
  const name = runFixture(path.join(ROOT, 'test/jest/environment.js'));
  expect(name).toMatch(/^starsgate_test_/);
  expect(await databaseExists(name)).toBe(false);
});

test("under jest's plain environment the same file leaves it behind", async () => {
  const name = runFixture('node');
  try {
    expect(await databaseExists(name)).toBe(true);
  } finally {
    const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).finally(() => admin.end());
  }
});
