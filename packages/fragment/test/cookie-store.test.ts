/**
 * Cookies that rotate (docs/fragment-protocol.md §20.2): against the simulator with its
 * rotateCookies fault on (every page answers a fresh `stel_ton_token`; the configured one is
 * refused after two rotations), clients that keep the login's cookies in real Redis stay logged
 * in, on every replica and after a restart, while a client that kept its configured cookies finds
 * the login dead.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { FragmentClient, RedisCookieStore, type CookieCodec } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let server: SimulatorServer;
let redis: Redis;

beforeAll(async () => {
  server = await startSimulator({ faults: { rotateCookies: true } });
  redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
});

afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

const tonTokenOf = (cookies: string) => /stel_ton_token=([^;\s]+)/.exec(cookies)![1]!;

/** A login with a wallet token of its own: rotating it leaves the other tests' logins alone. */
function ownLogin(): string {
  const token = randomBytes(16).toString('hex');
  server.sim.configure({ acceptedTonTokens: { [token]: server.sim.linkedWallet.address.toRawString() } });
  return server.freshCookies().replace(/stel_ton_token=[^;\s]+/, `stel_ton_token=${token}`);
}

describe('RedisCookieStore: rotated cookies shared by replicas and restarts', () => {
  it('keeps every replica and a restarted client on the current cookies', async () => {
    const configured = ownLogin();
    const store = new RedisCookieStore(redis, { prefix: `test:cookies:${randomBytes(4).toString('hex')}:` });
    const client = (cookieStore?: RedisCookieStore) =>
      new FragmentClient({
        baseUrl: server.baseUrl,
        cookies: configured,
        timeoutMs: 5_000,
        ...(cookieStore ? { cookieStore } : {}),
      });
    const [replicaA, replicaB] = [client(store), client(store)];

    // Each page read rotates the token; replicas take turns, each sending what the other received.
    for (const replica of [replicaA, replicaB, replicaA, replicaB]) {
      expect(await replica.sessionStatus()).toMatchObject({ loggedIn: true });
    }
    const stored = await store.load(store.key(configured));
    expect(stored.get('stel_ton_token')).toBeDefined();
    expect(stored.get('stel_ton_token')).not.toBe(tonTokenOf(configured));

    // A restarted worker (a new client from the same configuration) sends the stored cookies: its
    // page shows the login live and an order can be created.
    const restarted = client(store);
    expect(await restarted.sessionStatus()).toMatchObject({ loggedIn: true });
    const found = await restarted.searchRecipient('stars', 'alice', 50);
    await expect(
      restarted.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' }),
    ).resolves.toMatchObject({ reqId: expect.any(String) });

    // Without the store, the configured cookies are two rotations old: Fragment shows the login dead.
    expect(await client().sessionStatus()).toMatchObject({ loggedIn: false });
  });

  it('stores cookie values sealed by the codec, never in the clear', async () => {
    const configured = ownLogin();
    const codec: CookieCodec = {
      seal: (name, value) => Buffer.from(`${name}:${value}`).toString('base64url'),
      open: (name, sealed) =>
        Buffer.from(sealed, 'base64url')
          .toString()
          .slice(name.length + 1),
    };
    const store = new RedisCookieStore(redis, { prefix: `test:cookies:${randomBytes(4).toString('hex')}:`, codec });
    const client = new FragmentClient({
      baseUrl: server.baseUrl,
      cookies: configured,
      timeoutMs: 5_000,
      cookieStore: store,
    });
    await client.sessionStatus();
    await client.sessionStatus();
    // Saved right after the answer, beside the caller: wait for it to land.
    let raw = await redis.hgetall(store.key(configured));
    while (raw['stel_ton_token'] === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      raw = await redis.hgetall(store.key(configured));
    }
    const current = (await store.load(store.key(configured))).get('stel_ton_token')!;
    expect(raw['stel_ton_token']).toBeDefined();
    expect(raw['stel_ton_token']).not.toContain(current);
    expect(JSON.stringify(raw)).not.toContain(tonTokenOf(configured));
  });
});
