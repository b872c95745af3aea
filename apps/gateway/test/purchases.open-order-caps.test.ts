import request from 'supertest';
import { createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';

// Purchases pass the same open-order caps as checkouts (docs/security.md, attack 4; the checkout
// side is test/security/04-*): a purchase's payer is the wallet its seed pays from.
let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({
    RATE_LIMIT_MAX: '100000',
    OPEN_ORDERS_PER_PAYER: '2',
    OPEN_ORDERS_TOTAL: '4',
    OPEN_ORDERS_RETRY_AFTER_SECONDS: '17',
  });
});
afterAll(() => gateway?.close());

const purchase = (order: Record<string, unknown>) => request(gateway.app).post('/api/v1/purchases').send(order);

async function purchaseCount(): Promise<number> {
  return (await gateway.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases')).rows[0]!.n;
}

test('past the per-payer cap a new purchase is 429 naming the seed, while replays are answered and a key reused for another order is still 409', async () => {
  const first = starsOrder();
  expect((await purchase(first)).status).toBe(202);
  expect((await purchase(starsOrder())).status).toBe(202);

  const refused = await purchase(starsOrder());
  expect({ status: refused.status, code: refused.body.code, retryAfter: refused.headers['retry-after'] }).toEqual({
    status: 429,
    code: 'OPEN_ORDERS_LIMIT_REACHED',
    retryAfter: '17',
  });
  expect(refused.body.retry_after).toBe(17);
  expect(refused.body.details[0].field).toBe('seed');
  expect(await purchaseCount()).toBe(2);

  const replay = await purchase(first);
  expect({ status: replay.status, replayed: replay.headers['idempotent-replayed'] }).toEqual({
    status: 202,
    replayed: 'true',
  });
  const reused = await purchase({ ...first, amount: 51 });
  expect({ status: reused.status, code: reused.body.code }).toEqual({ status: 409, code: 'IDEMPOTENCY_KEY_REUSED' });
  expect(await purchaseCount()).toBe(2);
});

test('another payer has its own allowance until the total cap, then any new purchase is 429', async () => {
  expect((await purchase(starsOrder({ account_index: 1 }))).status).toBe(202);
  expect((await purchase(starsOrder({ account_index: 1 }))).status).toBe(202);

  const refused = await purchase(
    starsOrder({ seed: Buffer.alloc(32, 7).toString('base64'), account_index: undefined }),
  );
  expect({ status: refused.status, code: refused.body.code }).toEqual({
    status: 429,
    code: 'OPEN_ORDERS_LIMIT_REACHED',
  });
  expect(refused.body.details[0].field).toBe('idempotency_key');
  expect(await purchaseCount()).toBe(4);
});
