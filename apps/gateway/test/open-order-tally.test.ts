/**
 * The intake caps' counts (OpenOrderTally) against real PostgreSQL: a reading serves for its
 * maximum age plus the orders let through since, a count at a cap is read again before a refusal,
 * and a stale reading is replaced.
 */
import { randomUUID } from 'node:crypto';
import { OpenOrders } from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { OPEN_ORDER_READING_MAX_AGE_MS, OpenOrderTally } from '../src/intake/open-order-tally';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const payer = '0:' + 'ab'.repeat(32);

async function insertOpenOrder(walletAddress: string | null = payer): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status,
       product, username, amount, payment_method, seed_format, wallet_address)
     VALUES ($1, $2, 'payer', 'f', 'k', 'queued', 'stars', '@alice', 50, 'gram', 'base64_key', $3)`,
    [id, `key-${id}`, walletAddress],
  );
  return id;
}

test('a reading serves its maximum age, with the orders let through since; at a cap it is read again', async () => {
  let now = 1_000_000;
  const tally = new OpenOrderTally(new OpenOrders(database.db), () => now);
  const caps = { perPayer: 3, total: 100 };
  await insertOpenOrder();
  expect(await tally.count([payer], caps)).toEqual({ payer: 1, total: 1 });
  tally.passed([payer]);

  // Another process stores an order: this one does not see it until its next reading...
  await insertOpenOrder();
  expect(await tally.count([payer], caps)).toEqual({ payer: 2, total: 2 }); // 1 read + 1 let through
  tally.passed([payer]);
  // ...except that a count at the cap is read afresh: the refusal rests on PostgreSQL's count.
  expect(await tally.count([payer], caps)).toEqual({ payer: 2, total: 2 });
  await database.pool.query(`UPDATE purchases SET status = 'failed' WHERE wallet_address = $1`, [payer]);
  expect(await tally.count([payer], caps)).toEqual({ payer: 2, total: 2 }); // under the cap: the reading serves
  // Stale: it still serves while a new reading is taken in the background...
  now += OPEN_ORDER_READING_MAX_AGE_MS;
  expect(await tally.count([payer], caps)).toEqual({ payer: 2, total: 2 });
  const deadline = Date.now() + 5_000;
  let counts = await tally.count([payer], caps);
  while (counts.payer !== 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    counts = await tally.count([payer], caps);
  }
  expect(counts).toEqual({ payer: 0, total: 0 });
  // ...and a reading far too old is not served: the request waits for PostgreSQL's count.
  await insertOpenOrder();
  now += 10 * OPEN_ORDER_READING_MAX_AGE_MS;
  expect(await tally.count([payer], caps)).toEqual({ payer: 1, total: 1 });
});

test('concurrent requests share one read', async () => {
  await database.pool.query(`UPDATE purchases SET status = 'failed'`);
  const openOrders = new OpenOrders(database.db);
  let queries = 0;
  const counting = {
    count: (payers: readonly string[], caps: { perPayer: number; total: number }) => {
      queries += 1;
      return openOrders.count(payers, caps);
    },
  };
  const tally = new OpenOrderTally(counting);
  const all = await Promise.all(Array.from({ length: 20 }, () => tally.count([payer], { perPayer: 5, total: 5 })));
  expect(all.every((counts) => counts.payer === 0 && counts.total === 0)).toBe(true);
  expect(queries).toBe(1);
});

test('a total cap reached by other payers is read afresh before a refusal', async () => {
  await database.pool.query(`UPDATE purchases SET status = 'failed'`);
  let now = 2_000_000;
  const tally = new OpenOrderTally(new OpenOrders(database.db), () => now);
  const caps = { perPayer: 100, total: 2 };
  const other = '0:' + 'cd'.repeat(32);
  expect(await tally.count([other], caps)).toEqual({ payer: 0, total: 0 });
  tally.passed([other]);
  await insertOpenOrder(other);
  await insertOpenOrder(payer);
  expect(await tally.count([payer], caps)).toEqual({ payer: 1, total: 2 }); // no reading for this payer yet
  now += 1;
  expect(await tally.count([], caps)).toEqual({ payer: 0, total: 2 });
});

test('an order let through while a reading is taken still counts once that reading lands', async () => {
  // The query may have counted before that order was stored: the reading must not forget it.
  let now = 2_000_000;
  const answers: Array<(counts: { payer: number; total: number }) => void> = [];
  const counting = {
    count: () => new Promise<{ payer: number; total: number }>((resolve) => answers.push(resolve)),
  };
  const tally = new OpenOrderTally(counting, () => now);
  const caps = { perPayer: 2, total: 100 };
  const first = tally.count([payer], caps);
  answers.shift()!({ payer: 0, total: 0 });
  expect(await first).toEqual({ payer: 0, total: 0 });
  tally.passed([payer]);
  // Stale: served (1) while a new reading is taken, and another order gets through meanwhile.
  now += OPEN_ORDER_READING_MAX_AGE_MS;
  expect(await tally.count([payer], caps)).toEqual({ payer: 1, total: 1 });
  tally.passed([payer]);
  // The reading's query saw only the first order stored.
  answers.shift()!({ payer: 1, total: 1 });
  await new Promise((resolve) => setImmediate(resolve));
  const counts = tally.count([payer], caps);
  // At the cap (1 read + 1 let through while reading): read afresh, never served below it.
  answers.shift()!({ payer: 2, total: 2 });
  expect(await counts).toEqual({ payer: 2, total: 2 });
});
