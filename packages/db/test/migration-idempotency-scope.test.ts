/**
 * Migration 0010 on a database that already holds purchases and checkouts: each row gets the payer
 * scope its key now lives in (a checkout its payer address, a purchase its payer public key, a
 * purchase from before that key was stored a scope no request computes), and afterwards the same
 * key is free for another payer but still taken within its own.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { migrateDatabase } from '../src/migrate';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/database-before-migration';

const BEFORE = '0010_idempotency-scope-per-payer';
const PUBLIC_KEY = 'ab'.repeat(32);
const PAYER = `0:${'cd'.repeat(32)}`;
let before: DatabaseBeforeMigration;

beforeAll(async () => {
  before = await databaseBeforeMigration(BEFORE);
});

afterAll(() => before.drop());

it('gives every existing row its payer scope, then lets another payer use the same key', async () => {
  const client = new Client({ connectionString: before.url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: before.earlierMigrations });
    const insert = (mode: string, key: string, payerPublicKey: string | null, payerAddress: string | null) =>
      client.query<{ id: string }>(
        `INSERT INTO purchases (id, mode, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                                payment_method, seed_format, payer_public_key, requested_wallet_address)
         VALUES (gen_random_uuid(), $1, $2, 'f', 'k', 'queued', 'stars', '@alice', 50, 'gram', $3, $4, $5) RETURNING id`,
        [mode, key, mode === 'server_signed' ? 'base64_key' : null, payerPublicKey, payerAddress],
      );
    const purchase = (await insert('server_signed', 'order-1001', PUBLIC_KEY, null)).rows[0]!.id;
    const legacy = (await insert('server_signed', 'order-1000', null, null)).rows[0]!.id;
    const checkout = (await insert('client_signed', 'order-1001', null, PAYER)).rows[0]!.id;

    await migrateDatabase(before.url);

    const scopes = await client.query<{ id: string; idempotency_scope: string }>(
      'SELECT id, idempotency_scope FROM purchases',
    );
    expect(Object.fromEntries(scopes.rows.map((row) => [row.id, row.idempotency_scope]))).toEqual({
      [purchase]: PUBLIC_KEY,
      [legacy]: 'legacy-unscoped',
      [checkout]: PAYER,
    });
    const column = await client.query(
      "SELECT is_nullable FROM information_schema.columns WHERE table_name = 'purchases' AND column_name = 'idempotency_scope'",
    );
    expect(column.rows[0]).toEqual({ is_nullable: 'NO' });

    const claim = (key: string, scope: string) =>
      client.query(
        `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product,
                                username, amount, payment_method, seed_format)
         VALUES (gen_random_uuid(), $1, $2, 'f', 'k', 'queued', 'stars', '@alice', 50, 'gram', 'base64_key')
         ON CONFLICT (mode, idempotency_scope, idempotency_key) DO NOTHING`,
        [key, scope],
      );
    expect((await claim('order-1001', 'ef'.repeat(32))).rowCount).toBe(1);
    expect((await claim('order-1000', PUBLIC_KEY)).rowCount).toBe(1);
    expect((await claim('order-1001', PUBLIC_KEY)).rowCount).toBe(0);
  } finally {
    await client.end();
  }
});
