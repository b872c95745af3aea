/**
 * Webhooks end to end on the real worker, PostgreSQL, Redis and sandbox: every status change of a
 * real purchase becomes a signed event delivered at least once, in sequence order, to a local
 * receiver that verifies the signatures; 500s and timeouts are retried; a rotated secret signs
 * beside the new one; the events survive a worker SIGKILL between the status change and the delivery.
 */
import { purchaseView } from '@starsgate/domain';
import { waitFor } from '@starsgate/platform/testing';
import { WebhookHarness, FAST_WEBHOOKS } from './support/webhook-harness';
import { WebhookReceiver } from './support/webhook-receiver';
import { spawnWorker } from './support/worker-process';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let hooks: WebhookHarness;
let receiver: WebhookReceiver;
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  h = await WorkerHarness.start({ env: FAST_WEBHOOKS });
  hooks = new WebhookHarness(h);
  hooks.start();
  receiver = await WebhookReceiver.start();
  const created = await hooks.endpoints.create({ url: receiver.url });
  endpoint = { id: created.endpoint.id, secret: created.secret };
});

afterAll(async () => {
  await hooks?.close();
  await receiver?.close();
  await h?.close();
});

const order = (overrides: Partial<PurchaseInput> = {}): PurchaseInput => ({
  product: 'stars',
  username: '@alice',
  amount: 50,
  payment_method: 'gram',
  seed: h.wallet('base64-v5r1').seed,
  ...overrides,
});

/** The statuses a purchase went through, from its own audit trail. */
async function statusChanges(id: string): Promise<string[]> {
  const events = await h.purchases.events(id);
  return events.filter((event) => event.fromStatus !== event.toStatus).map((event) => event.toStatus);
}

/**
 * What `read` finds, polled for up to 5 s: the worker records a delivery's outcome once the
 * receiver's answer has reached it, a moment after the receiver saw the request.
 */
function eventually<T>(read: () => Promise<T | undefined>) {
  return waitFor(read, { timeoutMs: 5_000, intervalMs: 50, what: 'the delivery to be recorded' });
}

/** Each event once (by id), in sequence order: what a receiver that deduplicates sees. */
function deduplicated(purchaseId: string) {
  const byId = new Map(receiver.forPurchase(purchaseId).map((request) => [request.body.id, request.body]));
  return [...byId.values()].sort((a, b) => a.sequence - b.sequence);
}

test('every status change of a purchase is one signed event, in sequence order, with the public body', async () => {
  const created = await h.createPurchase(order());
  const row = await h.waitFor(created.id);
  expect(row.status).toBe('completed');
  const changes = await statusChanges(created.id);
  expect(changes).toEqual(['queued', 'preparing', 'sending', 'submitted', 'confirming', 'completed']);
  await receiver.waitFor(() => deduplicated(created.id).length === changes.length);

  const events = deduplicated(created.id);
  expect(events.map((event) => event.type)).toEqual(changes.map((status) => `purchase.${status}`));
  const sequences = events.map((event) => event.sequence);
  expect([...sequences].sort((a, b) => a - b)).toEqual(sequences);
  expect(new Set(sequences).size).toBe(sequences.length);
  // The last event's body is exactly what GET /api/v1/purchases/:id answers now.
  expect(events[events.length - 1]!.data).toEqual(JSON.parse(JSON.stringify(purchaseView(row))));
  for (const request of receiver.forPurchase(created.id)) {
    expect(request.headers['starsgate-event-id']).toBe(request.body.id);
    expect(request.headers['starsgate-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(receiver.verifiedBy(request, endpoint.secret)).toBe(true);
    expect(receiver.verifiedBy(request, 'whsec_wrong')).toBe(false);
    expect(receiver.verifiedBy({ ...request, raw: request.raw.replace('"stars"', '"premium"') }, endpoint.secret)).toBe(
      false,
    );
  }
  const outbox = await h.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM webhook_events WHERE purchase_id = $1',
    [created.id],
  );
  expect(outbox.rows[0]!.n).toBe(changes.length);
});

test('a GRAM top-up: its events name product gram and the whole GRAM, ending in purchase.completed', async () => {
  const created = await h.createPurchase(order({ product: 'gram', amount: 2 }));
  const row = await h.waitFor(created.id);
  expect(row.status).toBe('completed');
  const changes = await statusChanges(created.id);
  await receiver.waitFor(() => deduplicated(created.id).length === changes.length);
  const events = deduplicated(created.id);
  expect(events.map((event) => event.type)).toEqual(changes.map((status) => `purchase.${status}`));
  expect(events[events.length - 1]!.data).toMatchObject({
    status: 'completed',
    product: 'gram',
    amount: 2,
    payment_method: 'gram',
  });
  for (const request of receiver.forPurchase(created.id))
    expect(receiver.verifiedBy(request, endpoint.secret)).toBe(true);
});

test('a failed purchase: its events too, ending in purchase.failed with the error', async () => {
  const created = await h.createPurchase(order({ username: '@nobody_here_123' }));
  const row = await h.waitFor(created.id);
  expect(row.status).toBe('failed');
  const changes = await statusChanges(created.id);
  await receiver.waitFor(() => deduplicated(created.id).length === changes.length);
  const events = deduplicated(created.id);
  expect(events.map((event) => event.type)).toEqual(changes.map((status) => `purchase.${status}`));
  expect(events[events.length - 1]!.data).toMatchObject({
    status: 'failed',
    error: { code: row.error && (row.error as { code: string }).code },
  });
});

test('500s and a timeout are retried with backoff until a 2xx; attempts, last status and error are recorded', async () => {
  receiver.answerFor('@retry_me', 'purchase.queued', 500, 'hang', 503);
  const created = await h.createPurchase(order({ username: '@retry_me' }), { enqueue: false });
  const queuedEvent = () =>
    receiver.forPurchase(created.id).filter((request) => request.body.type === 'purchase.queued');
  await receiver.waitFor(() => queuedEvent().some((request) => request.answer === 200));
  const attempts = queuedEvent();
  expect(attempts.map((request) => request.answer)).toEqual([500, 'hang', 503, 200]);
  expect(new Set(attempts.map((request) => request.body.id)).size).toBe(1);
  const delivered = await eventually(async () =>
    (await hooks.deliveries.list({ endpointId: endpoint.id, state: 'delivered' }, null, 200)).rows.find(
      (entry) => entry.event.purchase.id === created.id && entry.event.purchase.status === 'queued',
    ),
  );
  expect(delivered.delivery).toMatchObject({ state: 'delivered', attempts: 4, lastStatus: 200, lastError: null });
});

test('a delivery that never succeeds fails after the schedule; an operator retry delivers it', async () => {
  receiver.answerFor('@never_ok', 'purchase.queued', 500, 500, 500, 500);
  const created = await h.createPurchase(order({ username: '@never_ok' }), { enqueue: false });
  const queuedEvent = () =>
    receiver.forPurchase(created.id).filter((request) => request.body.type === 'purchase.queued');
  await receiver.waitFor(() => queuedEvent().length >= 4);
  const failed = await eventually(async () =>
    (await hooks.deliveries.list({ state: 'failed' }, null, 200)).rows.find(
      (entry) => entry.event.purchase.id === created.id && entry.event.purchase.status === 'queued',
    ),
  );
  expect(failed.delivery).toMatchObject({ attempts: 4, lastStatus: 500, lastError: 'HTTP 500' });
  expect(queuedEvent()).toHaveLength(4);
  await hooks.deliveries.retry(failed.delivery.id);
  await receiver.waitFor(() => queuedEvent().some((request) => request.answer === 200));
  const retried = await eventually(async () => {
    const found = await hooks.deliveries.findWithEvent(failed.delivery.id);
    return found?.delivery.state === 'delivered' ? found : undefined;
  });
  expect(retried.delivery).toMatchObject({ state: 'delivered', lastStatus: 200 });
});

test('after a rotation both secrets sign (one v1 each) until the old one expires', async () => {
  const rotated = await hooks.endpoints.rotateSecret(endpoint.id);
  const created = await h.createPurchase(order(), { enqueue: false });
  await receiver.waitFor(() => receiver.forPurchase(created.id).length > 0);
  const [request] = receiver.forPurchase(created.id);
  expect(String(request!.headers['starsgate-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
  expect(receiver.verifiedBy(request!, rotated!.secret)).toBe(true);
  expect(receiver.verifiedBy(request!, endpoint.secret)).toBe(true);
  // Past the overlap the old secret stops signing.
  await h.database.pool.query(
    `UPDATE webhook_endpoints SET signing_secrets = jsonb_set(signing_secrets, '{1,expires_at}', to_jsonb((now() - interval '1 second')::text)) WHERE id = $1`,
    [endpoint.id],
  );
  const later = await h.createPurchase(order(), { enqueue: false });
  await receiver.waitFor(() => receiver.forPurchase(later.id).length > 0);
  const [next] = receiver.forPurchase(later.id);
  expect(String(next!.headers['starsgate-signature'])).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  expect(receiver.verifiedBy(next!, rotated!.secret)).toBe(true);
  expect(receiver.verifiedBy(next!, endpoint.secret)).toBe(false);
  endpoint.secret = rotated!.secret;
});

test('events survive a worker SIGKILL between the status change and its delivery, and a Redis loss', async () => {
  // The earlier tests' purchases run to their end first: the doomed worker must claim this test's
  // purchase, not one of theirs that its sweeper would find still queued.
  const earlier = await h.database.pool.query<{ id: string }>('SELECT id FROM purchases');
  await h.waitForAll(
    earlier.rows.map((row) => row.id),
    90_000,
  );
  await hooks.stop();
  await h.stopWorker();
  const created = await h.createPurchase(order({ username: '@bob' }));
  // The real worker process claims the purchase (queued → preparing, and its outbox event, in one
  // commit) and is killed right after, before any drain can have delivered that event.
  const doomed = spawnWorker({ ...h.env, STARSGATE_CRASH_AT: 'after_claim' });
  expect(await doomed.exited).toEqual({ code: null, signal: 'SIGKILL' });
  expect((await h.find(created.id)).status).toBe('preparing');
  expect(receiver.forPurchase(created.id).some((request) => request.body.type === 'purchase.preparing')).toBe(false);
  // Redis loses everything it held for webhooks meanwhile.
  await hooks.queue.obliterate({ force: true });

  const survivor = spawnWorker(h.env);
  try {
    const row = await h.waitFor(created.id, undefined, 60_000);
    expect({ status: row.status, error: row.error }).toEqual({ status: 'completed', error: null });
    const changes = await statusChanges(created.id);
    await receiver.waitFor(() => deduplicated(created.id).length === changes.length, 30_000);
    expect(deduplicated(created.id).map((event) => event.type)).toEqual(changes.map((status) => `purchase.${status}`));
  } finally {
    await survivor.kill('SIGTERM');
  }
});
