/**
 * Dead logins out of rotation (docs/fragment-protocol.md §20.3): a login the simulator kills is
 * marked dead in Redis by the first replica that meets it, every replica sharing the states skips
 * it from then on (no order in N failing until a restart), and a scheduled recheck brings it back
 * once the simulator revives it.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { FragmentClient, FragmentSessionPool, LoginStates } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let server: SimulatorServer;
let redis: Redis;

beforeAll(async () => {
  server = await startSimulator();
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

const ssidOf = (cookies: string) => /stel_ssid=([^;\s]+)/.exec(cookies)![1]!;
const newClient = (cookies: string) => new FragmentClient({ baseUrl: server.baseUrl, cookies, timeoutMs: 5_000 });

function buy(pool: FragmentSessionPool, user: string) {
  return pool.flow(async (client) => {
    const found = await client.searchRecipient('stars', user, 50);
    return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
  });
}

describe('FragmentSessionPool: dead logins', () => {
  it('takes a logged-out login out of rotation for every replica, and brings it back once revived', async () => {
    const [first, second] = [server.freshCookies(), server.freshCookies()];
    const states = new LoginStates(redis, `test:logins:${randomBytes(4).toString('hex')}`);
    const replicaA = new FragmentSessionPool([newClient(first), newClient(second)], { states });
    const replicaB = new FragmentSessionPool([newClient(first), newClient(second)], { states });
    const [deadId, liveId] = replicaA.clients.map((client) => client.sessionId());

    server.sim.configure({ faults: { deadSessions: [ssidOf(first)] } });
    try {
      // Replica A meets the dead login on an order: that order fails, and the login is marked dead.
      const outcomes = await Promise.allSettled([buy(replicaA, 'alice'), buy(replicaA, 'bob')]);
      const failed = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(failed).toHaveLength(1);
      expect((failed[0] as PromiseRejectedResult).reason).toMatchObject({ kind: 'SESSION_INVALID' });
      const dead = (await states.all()).find((state) => state.sessionId === deadId);
      expect(dead).toMatchObject({ alive: false, accountId: replicaA.clients[0]!.accountId() });

      // From then on neither replica sends an order to it: every order goes to the live login.
      const pagesBefore = server.sim.stats().calls['initBuyStarsRequest'] ?? 0;
      const later = await Promise.all(
        ['carol', 'dave', 'alice', 'bob'].map((user, i) => buy(i % 2 === 0 ? replicaA : replicaB, user)),
      );
      expect(later.map((order) => order.sessionId)).toEqual([liveId, liveId, liveId, liveId]);
      expect((server.sim.stats().calls['initBuyStarsRequest'] ?? 0) - pagesBefore).toBe(4);

      // A recheck while it is still dead keeps it dead.
      expect(await replicaB.recheckDead()).toEqual([]);
    } finally {
      server.sim.configure({ faults: { deadSessions: [] } });
    }

    // Revived: the scheduled recheck (any replica) brings it back, with the wallet its page shows.
    expect(await replicaB.recheckDead()).toEqual([deadId]);
    const logins = await replicaA.logins();
    expect(logins.map((login) => [login.sessionId, login.alive])).toEqual(
      expect.arrayContaining([
        [deadId, true],
        [liveId, true],
      ]),
    );
    expect(logins.find((login) => login.sessionId === deadId)!.wallet).toMatch(/^0:[0-9a-f]{64}$/);
    expect(logins.find((login) => login.sessionId === liveId)!.lastOrderAt).toBeDefined();
    const used = new Set(
      (await Promise.all(['alice', 'bob', 'carol'].map((u) => buy(replicaA, u)))).map((o) => o.sessionId),
    );
    expect(used).toEqual(new Set([deadId, liveId]));
  });

  it('with every login dead an order still tries one, so a login taken back serves before the recheck', async () => {
    const cookies = server.freshCookies();
    const pool = new FragmentSessionPool([newClient(cookies)]);
    const id = pool.clients[0]!.sessionId();
    server.sim.configure({ faults: { deadSessions: [ssidOf(cookies)] } });
    try {
      await expect(buy(pool, 'alice')).rejects.toMatchObject({ kind: 'SESSION_INVALID' });
      await expect(buy(pool, 'bob')).rejects.toMatchObject({ kind: 'SESSION_INVALID' });
      expect(await pool.logins()).toMatchObject([{ sessionId: id, alive: false }]);
    } finally {
      server.sim.configure({ faults: { deadSessions: [] } });
    }
    await expect(buy(pool, 'carol')).resolves.toMatchObject({ sessionId: id });
    expect(await pool.logins()).toMatchObject([{ sessionId: id, alive: true }]);
  });
});
