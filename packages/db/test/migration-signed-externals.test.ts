/**
 * Migration 0003 on a database that already holds signed purchases: each batch's BOC moves to one
 * signed_externals row, purchases keep pointing at it, and a purchase signed without a batch id
 * gets an external of its own.
 */
import { randomUUID } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { Client } from 'pg';
import { migrateDatabase } from '../src/migrate';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from './support/database-before-migration';

const BEFORE = '0003_signed-externals';
let before: DatabaseBeforeMigration;

beforeAll(async () => {
  before = await databaseBeforeMigration(BEFORE);
});

afterAll(() => before.drop());

it('moves each batch BOC to signed_externals and keeps every purchase pointing at its external', async () => {
  const client = new Client({ connectionString: before.url });
  await client.connect();
  try {
    await migrate(drizzle(client), { migrationsFolder: before.earlierMigrations });
    const batch = randomUUID();
    const insert = (id: string, batchId: string | null, boc: string | null, seqno: number | null) =>
      client.query(
        `INSERT INTO purchases (id, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format,
                                wallet_address, signed_boc, normalized_hash, seqno, valid_until, batch_id)
         VALUES ($1, $6, 'f', 'k', 'confirming', 'stars', '@alice', 50, 'gram', 'base64_key', '0:ab', $2, $3, $4, 1900000000, $5)`,
        [id, boc, boc ? `hash-${boc}` : null, seqno, batchId, `key-${id}`],
      );
    const [first, second, alone, unsigned] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await insert(first, batch, 'te6batch', 7);
    await insert(second, batch, 'te6batch', 7);
    await insert(alone, null, 'te6alone', 6);
    await insert(unsigned, null, null, null);

    await migrateDatabase(before.url);

    const externals = await client.query(
      'SELECT batch_id, wallet_address, boc, normalized_hash, seqno, valid_until, message_count FROM signed_externals ORDER BY seqno',
    );
    expect(externals.rows).toHaveLength(2);
    expect(externals.rows[1]).toEqual({
      batch_id: batch,
      wallet_address: '0:ab',
      boc: 'te6batch',
      normalized_hash: 'hash-te6batch',
      seqno: 7,
      valid_until: 1900000000,
      message_count: 2,
    });
    expect(externals.rows[0]).toMatchObject({ boc: 'te6alone', seqno: 6, message_count: 1 });
    const purchases = await client.query('SELECT id, batch_id FROM purchases');
    const batchOf = new Map(
      purchases.rows.map((row: { id: string; batch_id: string | null }) => [row.id, row.batch_id]),
    );
    expect(batchOf.get(first)).toBe(batch);
    expect(batchOf.get(second)).toBe(batch);
    expect(batchOf.get(alone)).toBe(externals.rows[0].batch_id);
    expect(batchOf.get(unsigned)).toBeNull();
    const column = await client.query(
      "SELECT 1 FROM information_schema.columns WHERE table_name = 'purchases' AND column_name = 'signed_boc'",
    );
    expect(column.rowCount).toBe(0);
    await expect(
      client.query('UPDATE purchases SET batch_id = $1 WHERE id = $2', [randomUUID(), unsigned]),
    ).rejects.toThrow(/foreign key/);
  } finally {
    await client.end();
  }
});
