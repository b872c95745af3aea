import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { ensureDatabase } from '../src/migrate';
import { TEST_DATABASE_ADMIN_URL } from '../src/testing';

const ADMIN_URL = TEST_DATABASE_ADMIN_URL;

async function databaseExists(name: string): Promise<boolean> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return found.rowCount === 1;
  } finally {
    await client.end();
  }
}

async function dropDatabase(name: string): Promise<void> {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}"`);
  } finally {
    await client.end();
  }
}

describe('ensureDatabase', () => {
  const name = `starsgate_ensure_${randomBytes(5).toString('hex')}`;
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;

  afterAll(() => dropDatabase(name));

  it('lets processes that start together all create the same new database (the first npm start)', async () => {
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => ensureDatabase(url.toString())));
    expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
    expect(await databaseExists(name)).toBe(true);
  });
});
