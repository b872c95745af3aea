/**
 * A gateway whose Redis cannot be reached (down, or not yet up): every route that needs it answers
 * 503 SERVICE_UNAVAILABLE with Retry-After, never a 500, and stores nothing half-way.
 */
import { createServer, type AddressInfo, type Server } from 'node:net';
import request from 'supertest';
import { createTestGateway, starsOrder, uniqueKey, type TestGateway } from './support/test-gateway';

let gateway: TestGateway;
let deadRedis: Server;
beforeAll(async () => {
  // A "Redis" that drops every connection it accepts.
  deadRedis = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => deadRedis.listen(0, '127.0.0.1', resolve));
  gateway = await createTestGateway({ REDIS_URL: `redis://127.0.0.1:${(deadRedis.address() as AddressInfo).port}` });
});
afterAll(async () => {
  await gateway.close();
  await new Promise((resolve) => deadRedis.close(resolve));
  // ioredis gives a dropped stream its disconnectTimeout (2 s) to close after disconnect().
  await new Promise((resolve) => setTimeout(resolve, 2_100));
});

function expectUnavailable(response: request.Response): void {
  expect(response.status).toBe(503);
  expect(response.body).toEqual(
    expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', request_id: expect.any(String) }),
  );
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
}

it('answers 503 with Retry-After on the price routes', async () => {
  expectUnavailable(await request(gateway.app).get('/api/v1/prices'));
  expectUnavailable(await request(gateway.app).get('/api/v1/prices/quote').query({ product: 'stars', amount: 100 }));
});

it('refuses a purchase with 503 before storing it: a retry with the same key is safe', async () => {
  const key = uniqueKey('outage');
  expectUnavailable(
    await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ idempotency_key: key })),
  );
  const stored = await gateway.database.pool.query(
    'SELECT count(*)::int AS n FROM purchases WHERE idempotency_key = $1',
    [key],
  );
  expect(stored.rows[0].n).toBe(0);
});

it('reports not ready on /readyz', async () => {
  expect((await request(gateway.app).get('/readyz')).status).toBe(503);
});
