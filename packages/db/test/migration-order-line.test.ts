/**
 * Migration 0013 on a database that already holds orders: each row gets the order line its
 * product, username and amount describe, with the quantity under its product's name.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { migrateDatabase } from '../src/migrate';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/database-before-migration';

const BEFORE = '0013_order-line';
let before: DatabaseBeforeMigration;

beforeAll(async () => {
  before = await databaseBeforeMigration(BEFORE);
});

afterAll(() => before.drop());

it("fills every existing row's order line from product, username and amount", async () => {
  const client = new Client({ connectionString: before.url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: before.earlierMigrations });
    const insert = (key: string, product: string, username: string, amount: number, method: string) =>
      client.query<{ id: string }>(
        `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product,
                                username, amount, payment_method, seed_format)
         VALUES (gen_random_uuid(), $1, 'payer', 'f', 'k', 'queued', $2, $3, $4, $5, 'base64_key') RETURNING id`,
        [key, product, username, amount, method],
      );
    const stars = (await insert('a', 'stars', '@Alice', 50, 'usdt')).rows[0]!.id;
    const premium = (await insert('b', 'premium', '@bob', 12, 'gram')).rows[0]!.id;
    const gram = (await insert('c', 'gram', '@carol', 25, 'gram')).rows[0]!.id;

    await migrateDatabase(before.url);

    const lines = await client.query<{ id: string; order_line: unknown; amount: number }>(
      'SELECT id, order_line, amount FROM purchases',
    );
    expect(Object.fromEntries(lines.rows.map((row) => [row.id, row.order_line]))).toEqual({
      [stars]: { product: 'stars', recipient: '@Alice', quantities: { stars: 50 } },
      [premium]: { product: 'premium', recipient: '@bob', quantities: { months: 12 } },
      [gram]: { product: 'gram', recipient: '@carol', quantities: { gram: 25 } },
    });
    expect(lines.rows.map((row) => row.amount).sort((a, b) => a - b)).toEqual([12, 25, 50]);
  } finally {
    await client.end();
  }
});
