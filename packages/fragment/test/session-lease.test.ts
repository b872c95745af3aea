/**
 * One flow per Fragment session across processes (docs/fragment-protocol.md §20.1): replicas, each
 * with its own client and Redis connection, share one login through `SessionLeases` in real
 * Redis, against the simulator with its strictFlow fault on, which refuses (and counts) an init
 * whose flow another flow interleaved with, or that did not start with `mode: "new"`.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { FragmentClient, FragmentSessionPool, isFragmentError, SessionLeases } from '../src';
import { buyStars } from './support/buy-stars';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let server: SimulatorServer;
const connections: Redis[] = [];
const payer = new TestWallet('lease-payer');

beforeAll(async () => {
  // A little latency, so that flows of two replicas left to themselves do interleave.
  server = await startSimulator({ latency: { minMs: 2, maxMs: 12 }, faults: { strictFlow: true } });
  await server.chain.fund(payer.address, { gram: 100_000_000_000n, usdt: 0n });
});

afterAll(async () => {
  for (const redis of connections) redis.disconnect();
  await server?.close();
});

const rejections = () => server.sim.stats().strictFlowRejections;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One replica's view of a login: its own client, Redis connection and leases. */
function replica(cookies: string, prefix: string, ttlMs = 10_000) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  connections.push(redis);
  const leases = new SessionLeases(redis, { prefix, ttlMs, pollMs: 5 });
  const client = new FragmentClient({ baseUrl: server.baseUrl, cookies, timeoutMs: 5_000, leases });
  return { redis, client, leases, pool: new FragmentSessionPool([client]) };
}

function buyFlow(pool: FragmentSessionPool, user: string) {
  return pool.flow(
    (client, found: { recipient: string }) =>
      client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
    (client) => client.searchRecipient('stars', user, 50),
  );
}

describe('SessionLeases: one flow per Fragment session across replicas', () => {
  it('three replicas sharing one login never interleave their flows', async () => {
    const cookies = server.freshCookies();
    const prefix = `test:lease:${randomBytes(4).toString('hex')}:`;
    const replicas = [replica(cookies, prefix), replica(cookies, prefix), replica(cookies, prefix)];
    const before = rejections();
    const users = ['alice', 'bob', 'carol', 'dave'];
    const results = await Promise.all(replicas.flatMap(({ pool }) => users.map((user) => buyFlow(pool, user))));
    expect(rejections() - before).toBe(0);
    expect(new Set(results.map((r) => r.result.reqId)).size).toBe(results.length);
  });

  it('starts every flow with mode "new", also after the session delivered an order (no stale "done")', async () => {
    const cookies = server.freshCookies();
    const { client, pool } = replica(cookies, `test:lease:${randomBytes(4).toString('hex')}:`);
    await pool.flow((view) => buyStars(server, view, payer, 'alice', 50));
    // The page now shows the delivered order: its state says `done`, which the client adopts and
    // echoes in the next poll, as a browser's page does.
    expect((await client.pollOrderState('stars')).done).toBe(true);
    expect((await client.pollOrderState('stars')).mode).toBe('done');
    const before = rejections();
    const next = await buyFlow(pool, 'bob');
    expect(next.result.reqId).toBeTruthy();
    expect(rejections() - before).toBe(0);
  });

  it("a top-up's search opens the page's state (updateAdsTopupState mode new) only while holding the lease", async () => {
    const cookies = server.freshCookies();
    const prefix = `test:lease:${randomBytes(4).toString('hex')}:`;
    const holder = replica(cookies, prefix);
    const searcher = replica(cookies, prefix);
    const stateCalls = () => server.sim.stats().calls['updateAdsTopupState'] ?? 0;
    // Another replica is in the middle of a flow on this session.
    const held = await holder.leases.acquire(holder.client.sessionId());
    const before = stateCalls();
    let found = false;
    const search = searcher.client.searchRecipient('gram', 'alice', 10).then(() => (found = true));
    await sleep(300);
    expect(stateCalls() - before).toBe(0);
    expect(found).toBe(false);
    await held.release();
    await search;
    expect(stateCalls() - before).toBe(1);
  });

  it('after a holder crashed, the next flow waits for the lease to expire, then runs', async () => {
    const cookies = server.freshCookies();
    const prefix = `test:lease:${randomBytes(4).toString('hex')}:`;
    const crashed = replica(cookies, prefix, 600);
    // The crashed replica took the lease and started a flow, then died without a release.
    const held = await crashed.leases.acquire(crashed.client.sessionId());
    await new FragmentClient({ baseUrl: server.baseUrl, cookies }).syncState('stars');
    crashed.redis.disconnect();

    const next = replica(cookies, prefix, 10_000);
    const before = rejections();
    const result = await next.pool.flow(async (client) => {
      // This flow holds the lease only once the crashed holder's expired: its fence is the next one.
      const key = next.leases.key(client.sessionId());
      const fence = Number(await next.redis.get(`${key}:fence`));
      expect(fence).toBe(held.fence + 1);
      const found = await client.searchRecipient('stars', 'carol', 50);
      return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
    });
    expect(result.result.reqId).toBeTruthy();
    expect(rejections() - before).toBe(0);
  });

  it('a holder whose lease expired is stopped before its next call; the new holder runs', async () => {
    const cookies = server.freshCookies();
    const prefix = `test:lease:${randomBytes(4).toString('hex')}:`;
    const stalled = replica(cookies, prefix, 300);
    const other = replica(cookies, prefix, 10_000);
    const initsBefore = server.sim.stats().calls['initBuyStarsRequest'] ?? 0;
    let otherFlow: Promise<unknown> | undefined;
    const outcome = stalled.pool.flow(async (client) => {
      const found = await client.searchRecipient('stars', 'dave', 50);
      // The process stalls past its lease (a long GC pause, a frozen VM): another replica takes it.
      const key = stalled.leases.key(client.sessionId());
      while ((await stalled.redis.exists(key)) === 1) await sleep(20);
      otherFlow = buyFlow(other.pool, 'alice');
      while ((await stalled.redis.exists(key)) === 0) await sleep(5);
      return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
    });
    const error: unknown = await outcome.catch((e: unknown) => e);
    expect(isFragmentError(error) && error.kind).toBe('UPSTREAM_UNAVAILABLE');
    expect(String(error)).toMatch(/lease lost/);
    await otherFlow;
    // Only the new holder's init reached Fragment.
    expect((server.sim.stats().calls['initBuyStarsRequest'] ?? 0) - initsBefore).toBe(1);
  });
});
