import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrateDatabase } from '@starsgate/db';

const ADMIN_URL = process.env.SOAK_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface RunDatabase {
  name: string;
  url: string;
  /** The soak's own connection (application_name `starsgate-soak`) for its reads. */
  client: Client;
  drop(): Promise<void>;
}

/** A fresh, migrated database on the main PostgreSQL, for this run only. */
export async function createRunDatabase(): Promise<RunDatabase> {
  const name = `starsgate_soak_${randomBytes(5).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL, application_name: 'starsgate-soak' });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  await migrateDatabase(url.toString());
  const client = new Client({ connectionString: url.toString(), application_name: 'starsgate-soak' });
  await client.connect();
  return {
    name,
    url: url.toString(),
    client,
    async drop() {
      await client.end().catch(() => undefined);
      const dropper = new Client({ connectionString: ADMIN_URL, application_name: 'starsgate-soak' });
      await dropper.connect();
      try {
        await dropper.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
