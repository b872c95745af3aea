import { randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

it('keeps purchase_events append-only', async () => {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format)
     VALUES ($1, $2, 'payer', 'f', 'k', 'queued', 'stars', '@alice', 50, 'gram', 'base64_key')`,
    [id, `key-${id}`],
  );
  await database.pool.query(
    "INSERT INTO purchase_events (purchase_id, to_status, version, actor) VALUES ($1, 'queued', 1, 'test')",
    [id],
  );
  await expect(database.pool.query("UPDATE purchase_events SET reason = 'rewritten'")).rejects.toThrow(
    /append-only \(UPDATE refused\)/,
  );
  await expect(database.pool.query('DELETE FROM purchase_events')).rejects.toThrow(/append-only \(DELETE refused\)/);
  await expect(database.pool.query('TRUNCATE purchase_events CASCADE')).rejects.toThrow(
    /append-only \(TRUNCATE refused\)/,
  );
  const rows = await database.pool.query('SELECT count(*)::int AS n FROM purchase_events');
  expect(rows.rows[0].n).toBe(1);
});

it('rejects a status outside the spec', async () => {
  await expect(
    database.pool.query(
      `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format)
       VALUES ($1, 'k', 'payer', 'f', 'k', 'delivered', 'stars', '@a', 50, 'gram', 'base64_key')`,
      [randomUUID()],
    ),
  ).rejects.toThrow(/purchases_status_check/);
});
