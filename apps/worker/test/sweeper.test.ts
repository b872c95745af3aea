import request from 'supertest';
import { LeaseRepository, PurchaseRepository } from '@starsgate/db';
import { createLogger, purchaseJobId } from '@starsgate/platform';
import { createTestGateway, starsOrder, type TestGateway } from '@starsgate/gateway/testing';
import { Sweeper } from '../src/sweeper/sweeper';

let gateway: TestGateway;
let sweeper: Sweeper;

beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
  sweeper = new Sweeper({
    purchases: new PurchaseRepository(gateway.database.db),
    leases: new LeaseRepository(gateway.database.db),
    queue: gateway.queue,
    logger: createLogger({ service: 'worker', level: 'silent' }),
    batchSize: 1_000,
    intervalMs: 50,
  });
});
afterAll(() => gateway.close());

async function jobIds(): Promise<string[]> {
  const jobs = await gateway.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
  return jobs.map((job) => String(job.id)).sort();
}

describe('sweeper', () => {
  it('restores the job of every live purchase after Redis is flushed', async () => {
    const accepted = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        request(gateway.app)
          .post('/api/v1/purchases')
          .send(starsOrder({ amount: 50 + i })),
      ),
    );
    const ids = accepted.map((response) => response.body.purchase_id as string);
    const expected = ids.map((id) => purchaseJobId(id, 1)).sort();
    expect(await jobIds()).toEqual(expected);

    // A terminal purchase must not come back.
    await gateway.database.pool.query("UPDATE purchases SET status = 'completed' WHERE id = $1", [ids[0]]);

    await gateway.redis.flushdb();
    expect(await jobIds()).toEqual([]);

    const result = await sweeper.sweepOnce();
    expect(result).toEqual({ checked: 11, enqueued: 11 });
    expect(await jobIds()).toEqual(
      ids
        .slice(1)
        .map((id) => purchaseJobId(id, 1))
        .sort(),
    );

    // Idempotent: a second pass finds every job in place.
    expect(await sweeper.sweepOnce()).toEqual({ checked: 11, enqueued: 0 });
  });

  it('keeps a future next_run_at as a delay and skips leased purchases', async () => {
    const future = await request(gateway.app).post('/api/v1/purchases').send(starsOrder());
    const leased = await request(gateway.app).post('/api/v1/purchases').send(starsOrder());
    await gateway.redis.flushdb();
    await gateway.database.pool.query("UPDATE purchases SET next_run_at = now() + interval '1 hour' WHERE id = $1", [
      future.body.purchase_id,
    ]);
    await gateway.database.pool.query(
      "UPDATE purchases SET lease_owner = 'someone', lease_expires_at = now() + interval '1 minute' WHERE id = $1",
      [leased.body.purchase_id],
    );
    await sweeper.sweepOnce();
    const job = await gateway.queue.getJob(purchaseJobId(future.body.purchase_id, 1));
    expect(await job?.getState()).toBe('delayed');
    expect(job?.opts.delay).toBeGreaterThan(3_500_000);
    expect(await gateway.queue.getJob(purchaseJobId(leased.body.purchase_id, 1))).toBeUndefined();
  });

  it('runs single-flight across replicas through a PostgreSQL lease', async () => {
    const leases = new LeaseRepository(gateway.database.db);
    const first = await leases.acquire('sweeper-test', 'a', 60_000);
    expect(first).toEqual({ name: 'sweeper-test', owner: 'a', fence: 1 });
    expect(await leases.acquire('sweeper-test', 'b', 60_000)).toBeNull();
    await leases.release(first!);
    const second = await leases.acquire('sweeper-test', 'b', 60_000);
    expect(second?.fence).toBe(2);
    expect(await leases.renew(first!, 60_000)).toBe(false);
  });
});
