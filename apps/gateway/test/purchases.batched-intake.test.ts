import request from 'supertest';
import { createTestGateway, starsOrder, uniqueKey, type TestGateway } from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => gateway.close());

const post = (body: Record<string, unknown>) => request(gateway.app).post('/api/v1/purchases').send(body);

async function purchasesFor(keys: string[]): Promise<Array<{ id: string; idempotency_key: string }>> {
  const result = await gateway.database.pool.query(
    'SELECT id, idempotency_key FROM purchases WHERE idempotency_key = ANY($1)',
    [keys],
  );
  return result.rows;
}

describe('concurrent intake (requests share statements and commits)', () => {
  it('keeps every request its own outcome: new, replayed, reused key', async () => {
    const unique = Array.from({ length: 24 }, () => starsOrder({ idempotency_key: uniqueKey('together') }));
    const shared = starsOrder({ idempotency_key: uniqueKey('shared') });
    const reused = { ...shared, amount: 99 };
    const responses = await Promise.all([...unique, shared, shared, reused, shared].map(post));

    expect(responses.slice(0, 24).map((response) => response.status)).toEqual(unique.map(() => 202));
    expect(new Set(responses.slice(0, 24).map((response) => response.body.purchase_id)).size).toBe(24);

    // Concurrent requests have no order: whichever of the two orders under the shared key is stored
    // first owns it; every request of that order gets its one purchase, every other one a 409.
    const sharedResponses = [responses[24], responses[25], responses[27]];
    const reusedResponse = responses[26];
    if (reusedResponse?.status === 202) {
      expect(sharedResponses.map((response) => [response?.status, response?.body.code])).toEqual(
        sharedResponses.map(() => [409, 'IDEMPOTENCY_KEY_REUSED']),
      );
    } else {
      expect(sharedResponses.map((response) => response?.status)).toEqual([202, 202, 202]);
      expect(new Set(sharedResponses.map((response) => response?.body.purchase_id)).size).toBe(1);
      expect(sharedResponses.filter((response) => response?.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
      expect([reusedResponse?.status, reusedResponse?.body.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    }

    const keys = [...unique, shared].map((order) => String(order.idempotency_key));
    const rows = await purchasesFor(keys);
    expect(rows).toHaveLength(25);
    // A 202 means committed and enqueued: every purchase is readable and has its job.
    const jobs = await gateway.queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed', 'failed']);
    const jobPurchases = new Set(jobs.map((job) => job.data.purchaseId));
    for (const row of rows) expect(jobPurchases.has(row.id)).toBe(true);
    const reads = await Promise.all(rows.map((row) => request(gateway.app).get(`/api/v1/purchases/${row.id}`)));
    expect(reads.map((read) => read.status)).toEqual(rows.map(() => 200));
    expect(reads.map((read) => read.body.purchase_id).sort()).toEqual(rows.map((row) => row.id).sort());
  });

  it('a purchase PostgreSQL refuses is a 400 for its request only, never a 500 for its neighbours', async () => {
    // A constraint the schema does not have, so that one valid-looking request fails inside the database.
    await gateway.database.pool.query(
      "ALTER TABLE purchases ADD CONSTRAINT test_refuses_dave CHECK (username <> '@dave')",
    );
    try {
      const good = Array.from({ length: 10 }, () => starsOrder({ idempotency_key: uniqueKey('neighbour') }));
      const refused = starsOrder({ idempotency_key: uniqueKey('refused'), username: '@dave' });
      const responses = await Promise.all([...good.slice(0, 5), refused, ...good.slice(5)].map(post));
      const statuses = responses.map((response) => response.status);
      expect(statuses).toEqual([202, 202, 202, 202, 202, 400, 202, 202, 202, 202, 202]);
      expect(responses[5]?.body.code).toBe('VALIDATION_FAILED');
      expect(await purchasesFor(good.map((order) => String(order.idempotency_key)))).toHaveLength(10);
      expect(await purchasesFor([String(refused.idempotency_key)])).toHaveLength(0);
    } finally {
      await gateway.database.pool.query('ALTER TABLE purchases DROP CONSTRAINT test_refuses_dave');
    }
  });
});
