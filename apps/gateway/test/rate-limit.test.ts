import request from 'supertest';
import { createTestGateway, type TestGateway } from './support/test-gateway';

const UNKNOWN = '/api/v1/purchases/00000000-0000-4000-8000-000000000000';
let first: TestGateway;
let second: TestGateway;
let burstFirst: TestGateway;
let burstSecond: TestGateway;
beforeAll(async () => {
  first = await createTestGateway({ RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '30' });
  // A second replica: its own app and connections, the same Redis keys.
  second = await createTestGateway(
    { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_SECONDS: '30' },
    { redisKeyPrefix: first.bullPrefix },
  );
  burstFirst = await createTestGateway({ RATE_LIMIT_MAX: '7', RATE_LIMIT_WINDOW_SECONDS: '30' });
  burstSecond = await createTestGateway(
    { RATE_LIMIT_MAX: '7', RATE_LIMIT_WINDOW_SECONDS: '30' },
    { redisKeyPrefix: burstFirst.bullPrefix },
  );
});
afterAll(async () => {
  await first.close();
  await second.close();
  await burstFirst.close();
  await burstSecond.close();
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

it('a concurrent burst on two replicas passes exactly the limit (hits are counted in batches, each in order)', async () => {
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, index) => request(index % 2 === 0 ? burstFirst.app : burstSecond.app).get(UNKNOWN)),
  );
  const statuses = responses.map((response) => response.status);
  expect(statuses.filter((status) => status === 404)).toHaveLength(7);
  expect(statuses.filter((status) => status === 429)).toHaveLength(13);
  const remaining = responses.map((response) => /remaining=(\d+)/.exec(String(response.headers.ratelimit))?.[1]).sort();
  expect(remaining).toEqual([
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '0',
    '1',
    '2',
    '3',
    '4',
    '5',
    '6',
  ]);
  expect(responses[0]?.headers['ratelimit-policy']).toBe('7;w=30');
});
