/**
 * The webhook outbox on real PostgreSQL: a status change writes its event in its own transaction
 * (whatever statement made it: intake, claim, fenced batch write, an operator's unheld write), a
 * write that keeps the status writes none, nothing is written while no endpoint exists, and the
 * dispatch fans each event out once to the endpoints subscribed to its type.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseKeyRing, PurchaseTransitions, SecretVault, WebhookDeliveries, WebhookEndpoints } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
let transitions: PurchaseTransitions;
let endpoints: WebhookEndpoints;
let deliveries: WebhookDeliveries;

beforeAll(async () => {
  database = await createTestDatabase();
  transitions = new PurchaseTransitions(database.db);
  endpoints = new WebhookEndpoints(
    database.db,
    new SecretVault(parseKeyRing(`t1:${randomBytes(32).toString('base64')}`)),
  );
  deliveries = new WebhookDeliveries(database.db);
});
afterAll(() => database.drop());

async function insertPurchase(): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format, quote_nano)
     VALUES ($1, $2, 'payer', 'f', 'k', 'queued', 'stars', '@alice', 50, 'gram', 'base64_key', 12345678901234567)`,
    [id, `key-${id}`],
  );
  return id;
}

async function outbox(
  id: string,
): Promise<Array<{ sequence: number; status: string; snapshot: Record<string, unknown> }>> {
  const { rows } = await database.pool.query(
    'SELECT sequence, status, snapshot FROM webhook_events WHERE purchase_id = $1 ORDER BY sequence',
    [id],
  );
  return rows;
}

test('no endpoint, no event', async () => {
  const id = await insertPurchase();
  await transitions.claim(id, 'w', 30_000);
  expect(await outbox(id)).toEqual([]);
});

describe('with an endpoint', () => {
  let all: string;
  let completedOnly: string;
  beforeAll(async () => {
    all = (await endpoints.create({ url: 'http://127.0.0.1:9/all' })).endpoint.id;
    completedOnly = (await endpoints.create({ url: 'http://127.0.0.1:9/done', events: ['purchase.completed'] }))
      .endpoint.id;
  });

  test('each status change is one event (sequence = row version), a same-status write none', async () => {
    const [a, b] = [await insertPurchase(), await insertPurchase()];
    const claimedA = await transitions.claim(a, 'w', 30_000);
    const claimedB = await transitions.claim(b, 'w', 30_000);
    const fence = (row: { id: string; version: number }) => ({ id: row.id, version: row.version, owner: 'w' });
    // A same-status step outcome (attempt counter): no event.
    const [stepA, stepB] = await transitions.applyMany(
      [fence(claimedA!.row), fence(claimedB!.row)],
      { attempt: 1 },
      {
        event: { toStatus: 'preparing', reason: 'retry' },
      },
    );
    // One statement moves both: one event each.
    const moved = await transitions.applyMany(
      [fence(stepA!), fence(stepB!)],
      { status: 'confirming' },
      {
        fromStatus: 'preparing',
        event: { toStatus: 'confirming', reason: 'batch' },
      },
    );
    const done = await transitions.applyUnheld(
      { id: a, version: moved[0]!.version },
      'operator:alice',
      { status: 'completed' },
      {
        event: { toStatus: 'completed', reason: 'checked' },
      },
    );
    expect(done).toBeNull(); // still held by w: an unheld write cannot touch it
    await transitions.apply(fence(moved.find((row) => row.id === a)!), { status: 'completed' }, { release: true });

    const eventsA = await outbox(a);
    expect(eventsA.map((event) => event.status)).toEqual(['queued', 'preparing', 'confirming', 'completed']);
    expect(eventsA.map((event) => event.sequence)).toEqual([1, 2, 4, 5]);
    expect((await outbox(b)).map((event) => event.status)).toEqual(['queued', 'preparing', 'confirming']);
    // The snapshot is the committed row; bigint money survives as text.
    expect(eventsA[3]!.snapshot).toMatchObject({
      id: a,
      status: 'completed',
      version: 5,
      quote_nano: '12345678901234567',
    });
  });

  test('dispatch fans each event out once, by subscription', async () => {
    const id = await insertPurchase();
    await transitions.claim(id, 'w', 30_000);
    // The worker passes @starsgate/domain's webhookEventOf; its purchase types are these.
    const typeOf = (row: { status: string }) => `purchase.${row.status}`;
    await deliveries.dispatch(typeOf, 10_000);
    expect(await deliveries.dispatch(typeOf, 10_000)).toEqual([]);
    const { rows } = await database.pool.query(
      `SELECT d.endpoint_id, e.status FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE e.purchase_id = $1 ORDER BY e.sequence`,
      [id],
    );
    expect(rows).toEqual([
      { endpoint_id: all, status: 'queued' },
      { endpoint_id: all, status: 'preparing' },
    ]);
    expect(rows.some((row: { endpoint_id: string }) => row.endpoint_id === completedOnly)).toBe(false);
  });
});
