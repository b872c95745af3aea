/**
 * Retention of the webhook outbox on real PostgreSQL: old settled events go with their
 * deliveries; pending, undispatched and recent ones stay.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { parseKeyRing, SecretVault, WebhookDeliveries, WebhookEndpoints } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
let deliveries: WebhookDeliveries;
let endpointId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  deliveries = new WebhookDeliveries(database.db);
  const endpoints = new WebhookEndpoints(
    database.db,
    new SecretVault(parseKeyRing(`t1:${randomBytes(32).toString('base64')}`)),
  );
  endpointId = (await endpoints.create({ url: 'http://127.0.0.1:9/hooks' })).endpoint.id;
});
afterAll(() => database.drop());

const DAY_MS = 86_400_000;

/** An event `ageDays` old, dispatched or not, with one delivery per given state. */
async function event(ageDays: number, dispatched: boolean, states: string[]): Promise<string> {
  const id = randomUUID();
  const createdAt = new Date(Date.now() - ageDays * DAY_MS);
  await database.pool.query(
    `INSERT INTO webhook_events (id, purchase_id, sequence, status, snapshot, created_at, dispatched_at)
     VALUES ($1, $2, 1, 'completed', '{}'::jsonb, $3, $4)`,
    [id, randomUUID(), createdAt, dispatched ? createdAt : null],
  );
  for (const state of states) {
    // One endpoint per delivery: (event, endpoint) is unique.
    const endpoint = states.indexOf(state) === 0 ? endpointId : await anotherEndpoint();
    await database.pool.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, created_at) VALUES ($1, $2, $3, $4)`,
      [id, endpoint, state, createdAt],
    );
  }
  return id;
}

async function anotherEndpoint(): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO webhook_endpoints (id, url, signing_secrets) VALUES ($1, 'http://127.0.0.1:9/other', '[]'::jsonb)`,
    [id],
  );
  return id;
}

async function remaining(ids: string[]): Promise<{ events: string[]; deliveries: number }> {
  const events = await database.pool.query<{ id: string }>('SELECT id FROM webhook_events WHERE id = ANY($1)', [ids]);
  const rows = await database.pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM webhook_deliveries WHERE event_id = ANY($1)',
    [ids],
  );
  return { events: events.rows.map((row) => row.id).sort(), deliveries: Number(rows.rows[0]?.n) };
}

test('settled events past the cutoff go with their deliveries; pending, undispatched and recent ones stay', async () => {
  const oldDelivered = await event(40, true, ['delivered']);
  const oldFailedAndDelivered = await event(40, true, ['failed', 'delivered']);
  const oldNoSubscriber = await event(40, true, []);
  const oldPending = await event(40, true, ['delivered', 'pending']);
  const oldUndispatched = await event(40, false, []);
  const recentDelivered = await event(2, true, ['delivered']);
  const all = [oldDelivered, oldFailedAndDelivered, oldNoSubscriber, oldPending, oldUndispatched, recentDelivered];

  const pruned = await deliveries.prune(new Date(Date.now() - 30 * DAY_MS), 1_000);

  expect(pruned).toBe(3);
  expect(await remaining(all)).toEqual({
    events: [oldPending, oldUndispatched, recentDelivered].sort(),
    deliveries: 3,
  });
});

test('a batch limit leaves the rest for the next batch, oldest first', async () => {
  const older = await event(50, true, ['delivered']);
  const newer = await event(45, true, ['delivered']);

  expect(await deliveries.prune(new Date(Date.now() - 30 * DAY_MS), 1)).toBe(1);
  expect((await remaining([older, newer])).events).toEqual([newer]);
  expect(await deliveries.prune(new Date(Date.now() - 30 * DAY_MS), 1)).toBe(1);
  expect((await remaining([older, newer])).events).toEqual([]);
});
