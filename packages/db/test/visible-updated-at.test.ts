/**
 * A purchase's public `updated_at` moves only when something its client sees changes (status,
 * transaction hash, error). The worker's polls while `confirming` (claim, reschedule with an
 * event, heartbeat) move only its own bookkeeping column, `worked_at`.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PurchaseRepository } from '../src/repositories/purchase-repository';
import { PurchaseTransitions } from '../src/repositories/purchase-transitions';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
let transitions: PurchaseTransitions;
let purchases: PurchaseRepository;

beforeAll(async () => {
  database = await createTestDatabase();
  transitions = new PurchaseTransitions(database.db);
  purchases = new PurchaseRepository(database.db);
});
afterAll(() => database.drop());

async function insertPurchase(status: string): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format)
     VALUES ($1, $2, 'payer', 'f', 'k', $3, 'stars', '@alice', 50, 'gram', 'base64_key')`,
    [id, `key-${id}`, status],
  );
  return id;
}

async function stamps(id: string): Promise<{ updatedAt: Date; workedAt: Date }> {
  const row = (await purchases.findById(id))!;
  return { updatedAt: row.updatedAt, workedAt: row.workedAt };
}

/** One poll as the confirming step runs it: claim, look, reschedule with an event. */
async function poll(id: string, changes: Parameters<PurchaseTransitions['apply']>[1] = {}) {
  const attempt = await transitions.claim(id, 'poller', 30_000);
  if (!attempt?.claimed) throw new Error('not claimed');
  const fence = { id, version: attempt.row.version, owner: 'poller' };
  expect(await transitions.heartbeat(fence, 30_000)).toBe(true);
  const row = await transitions.apply(
    fence,
    { ...changes, nextRunAt: new Date(Date.now() - 1_000) },
    { release: true, fromStatus: 'confirming', event: { toStatus: changes.status ?? 'confirming', reason: 'poll' } },
  );
  expect(row).not.toBeNull();
}

it('stays still across polls of a confirming purchase and moves on each visible change', async () => {
  const id = await insertPurchase('confirming');
  const created = await stamps(id);
  const view = await purchases.findViewById(id);
  for (let index = 0; index < 3; index += 1) {
    await sleep(20);
    await poll(id, { attempt: index + 1, evidence: { polls: index + 1 } });
  }
  const polled = await stamps(id);
  expect(polled.updatedAt).toEqual(created.updatedAt);
  expect(polled.workedAt.getTime()).toBeGreaterThan(created.workedAt.getTime());
  expect((await purchases.findViewById(id))?.updatedAt).toEqual(view?.updatedAt);
  // Writing the value it already has is no change either.
  await poll(id, { status: 'confirming' });
  expect((await stamps(id)).updatedAt).toEqual(created.updatedAt);

  await sleep(20);
  await poll(id, { transactionHash: 'ab'.repeat(32) });
  const paid = await stamps(id);
  expect(paid.updatedAt.getTime()).toBeGreaterThan(created.updatedAt.getTime());

  await sleep(20);
  await poll(id, { transactionHash: 'ab'.repeat(32) });
  expect((await stamps(id)).updatedAt).toEqual(paid.updatedAt);

  await sleep(20);
  await poll(id, { status: 'completed', completedAt: new Date() });
  expect((await stamps(id)).updatedAt.getTime()).toBeGreaterThan(paid.updatedAt.getTime());
});

it('moves when a queued purchase starts, not when a purchase under way is claimed again', async () => {
  const queued = await insertPurchase('queued');
  const before = await stamps(queued);
  await sleep(20);
  await transitions.claim(queued, 'worker', 30_000);
  expect((await stamps(queued)).updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());

  const submitted = await insertPurchase('submitted');
  const found = await stamps(submitted);
  await sleep(20);
  await transitions.claim(submitted, 'worker', 30_000);
  const claimed = await stamps(submitted);
  expect(claimed.updatedAt).toEqual(found.updatedAt);
  expect(claimed.workedAt.getTime()).toBeGreaterThan(found.workedAt.getTime());
});

it('moves when an error is recorded', async () => {
  const id = await insertPurchase('confirming');
  const before = await stamps(id);
  await sleep(20);
  await poll(id, { status: 'failed', error: { code: 'NOT_EXECUTED', message: 'expired' } });
  expect((await stamps(id)).updatedAt.getTime()).toBeGreaterThan(before.updatedAt.getTime());
});
