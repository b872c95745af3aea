import request from 'supertest';
import { purchaseJobId } from '@starsgate/platform';
import {
  createTestGateway,
  starsOrder,
  uniqueKey,
  type TestGateway,
  BIP39_INDEX0_V5R1,
  BIP39_INDEX1_V5R1,
} from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => gateway.close());

async function rowsFor(key: string): Promise<number> {
  const result = await gateway.database.pool.query(
    'SELECT count(*)::int AS n FROM purchases WHERE idempotency_key = $1',
    [key],
  );
  return result.rows[0].n as number;
}

describe('idempotency', () => {
  it('replays the same purchase for the same key and order', async () => {
    const order = starsOrder();
    const first = await request(gateway.app).post('/api/v1/purchases').send(order);
    expect(first.status).toBe(202);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(first.body).toEqual({
      purchase_id: first.body.purchase_id,
      status: 'queued',
      status_url: `/api/v1/purchases/${first.body.purchase_id}`,
    });

    // Same order, spelled differently where the spec says it is the same thing.
    const again = await request(gateway.app)
      .post('/api/v1/purchases')
      .send({ ...order, username: '@ALICE', payment_method: 'ton', seed: `  ${String(order.seed).toUpperCase()}  ` });
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.purchase_id).toBe(first.body.purchase_id);
    expect(await rowsFor(String(order.idempotency_key))).toBe(1);
  });

  it('answers the current status on a replay', async () => {
    const order = starsOrder();
    const first = await request(gateway.app).post('/api/v1/purchases').send(order);
    await gateway.database.pool.query("UPDATE purchases SET status = 'preparing' WHERE id = $1", [
      first.body.purchase_id,
    ]);
    const again = await request(gateway.app).post('/api/v1/purchases').send(order);
    expect(again.body.status).toBe('preparing');
  });

  it.each([
    ['recipient', { username: '@bob' }],
    ['product', { product: 'premium', amount: 3 }],
    ['amount', { amount: 51 }],
    ['payment method', { payment_method: 'usdt' }],
    // The same payer (one public key), its wallet named differently.
    ['wallet (address instead of index)', { account_index: undefined, wallet_address: BIP39_INDEX0_V5R1 }],
    ['wallet (address beside the index)', { wallet_address: BIP39_INDEX0_V5R1 }],
  ])('409 IDEMPOTENCY_KEY_REUSED when the %s differs', async (_label, change) => {
    const order = starsOrder();
    await request(gateway.app).post('/api/v1/purchases').send(order).expect(202);
    const conflict = await request(gateway.app)
      .post('/api/v1/purchases')
      .send({ ...order, ...change });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(conflict.headers['x-should-retry']).toBe('false');
    expect(conflict.body.details[0].field).toBe('idempotency_key');
    expect(await rowsFor(String(order.idempotency_key))).toBe(1);
  });

  // Keys are scoped to the payer (docs/security.md, attack 5): another payer's key is another order.
  it.each([
    ['account index 1', { account_index: 1 }],
    ['the address of account 1', { account_index: undefined, wallet_address: BIP39_INDEX1_V5R1 }],
    ['another seed', { seed: Buffer.alloc(32, 3).toString('base64'), account_index: undefined }],
  ])('another payer (%s) with the same key gets a purchase of its own', async (_label, change) => {
    const order = starsOrder();
    const first = await request(gateway.app).post('/api/v1/purchases').send(order).expect(202);
    const other = await request(gateway.app)
      .post('/api/v1/purchases')
      .send({ ...order, ...change });
    expect(other.status).toBe(202);
    expect(other.headers['idempotent-replayed']).toBeUndefined();
    expect(other.body.purchase_id).not.toBe(first.body.purchase_id);
    expect(await rowsFor(String(order.idempotency_key))).toBe(2);
  });

  it('20 concurrent identical requests make one purchase and one job', async () => {
    const order = starsOrder({ idempotency_key: uniqueKey('burst') });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => request(gateway.app).post('/api/v1/purchases').send(order)),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => status === 202)).toBe(true);
    const ids = new Set(responses.map((response) => response.body.purchase_id));
    expect(ids.size).toBe(1);
    expect(responses.filter((response) => response.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await rowsFor(String(order.idempotency_key))).toBe(1);

    const [purchaseId] = [...ids] as string[];
    const jobs = await gateway.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
    const mine = jobs.filter((job) => job.data.purchaseId === purchaseId);
    expect(mine.map((job) => job.id)).toEqual([purchaseJobId(purchaseId!, 1)]);
    // A new purchase's first job is prioritized: purchases already under way are served first.
    expect(mine[0]!.opts.priority).toBeGreaterThan(0);
    const events = await gateway.database.pool.query(
      'SELECT count(*)::int AS n FROM purchase_events WHERE purchase_id = $1',
      [purchaseId],
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('counts replays and conflicts in /metrics', async () => {
    const metrics = await request(gateway.adminApp).get('/metrics');
    expect(metrics.text).toMatch(/idempotency_replays_total \d+/);
    expect(metrics.text).toMatch(/idempotency_conflicts_total\{kind="key_reused"\} [1-9]/);
    expect(metrics.text).toMatch(
      /purchases_created_total\{product="stars",payment_method="gram",mode="server_signed"\} [1-9]/,
    );
    expect(metrics.text).toMatch(
      /http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/purchases",status_class="2xx"\}/,
    );
  });
});
