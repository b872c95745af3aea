import request from 'supertest';
import { createTestGateway, type TestGateway } from './support/test-gateway';

const UNKNOWN = '/api/v1/purchases/00000000-0000-4000-8000-000000000000';
let first: TestGateway;
let second: TestGateway;
beforeAll(async () => {
  first = await createTestGateway({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '30' });
  // A second replica: its own app and connections, the same Redis keys.
  second = await createTestGateway({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '30' }, { redisKeyPrefix: first.bullPrefix });
});
afterAll(async () => {
  await first.close();
  await second.close();
});

it('429 with Retry-After and retry_after, counted across replicas through Redis', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await request(first.app).get(UNKNOWN)).status);
  for (let i = 0; i < 2; i += 1) statuses.push((await request(second.app).get(UNKNOWN)).status);
  expect(statuses).toEqual([404, 404, 404, 404, 404]);

  const limited = await request(second.app).get(UNKNOWN);
  expect(limited.status).toBe(429);
  expect(limited.body.code).toBe('RATE_LIMITED');
  const retryAfter = Number(limited.headers['retry-after']);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(30);
  expect(limited.body.retry_after).toBe(retryAfter);
  expect(limited.body.request_id).toEqual(expect.any(String));
  expect((await request(first.app).post('/api/v1/purchases').send({})).status).toBe(429);

  // Probes are outside the API budget.
  expect((await request(first.app).get('/livez')).status).toBe(200);
});
