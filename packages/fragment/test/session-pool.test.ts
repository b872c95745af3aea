/**
 * FragmentSessionPool over real clients and the sandbox's Fragment simulator: flows on different
 * sessions run at the same time, an order is confirmed through the session that created it,
 * confirm does not wait for a session's flow mutex, and warming up syncs every live session and
 * names the dead ones.
 */
import { FragmentClient, FragmentSessionPool } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

let server: SimulatorServer;
const payer = new TestWallet('pool-payer');

beforeAll(async () => {
  server = await startSimulator();
  await server.chain.fund(payer.address, { gram: 100_000_000_000n, usdt: 0n });
});

afterAll(async () => {
  await server?.close();
});

const newClient = () =>
  new FragmentClient({ baseUrl: server.baseUrl, cookies: server.freshCookies(), timeoutMs: 5_000 });

/** Resolves once `count` callers have arrived: only concurrent flows get past it. */
function barrier(count: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived === count) open();
    return opened;
  };
}

describe('FragmentSessionPool', () => {
  it('runs one flow per session at the same time, on distinct sessions', async () => {
    const pool = new FragmentSessionPool([newClient(), newClient(), newClient()]);
    const meet = barrier(3);
    // With one session these three flows would deadlock at the barrier (one flow at a time).
    const results = await Promise.all(
      ['alice', 'bob', 'carol'].map((user) =>
        pool.flow(async (client) => {
          const found = await client.searchRecipient('stars', user, 50);
          await meet();
          return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
        }),
      ),
    );
    expect(new Set(results.map((r) => r.sessionId)).size).toBe(3);
    expect(results.map((r) => r.result.amount)).toEqual(['0.4412', '0.4412', '0.4412']);
  });

  it('confirms through the session that created the order, even while that session runs another flow', async () => {
    const pool = new FragmentSessionPool([newClient(), newClient()]);
    const account = payer.account();
    const { sessionId, result: tx } = await pool.flow(async (client) => {
      const found = await client.searchRecipient('stars', 'dave', 75);
      const order = await client.initRequest({
        product: 'stars',
        recipient: found.recipient,
        amount: 75,
        paymentMethod: 'ton',
      });
      return client.getTransaction({ product: 'stars', reqId: order.reqId, account });
    });
    const boc = await payer.sign(server.chain, tx);
    await server.chain.submitExternal(boc);

    const creator = pool.session(sessionId);
    const other = pool.clients.find((c) => c !== creator)!;
    // Another session may not confirm it: the order belongs to its creator's session.
    await expect(
      other.confirm({
        confirmMethod: tx.confirmMethod,
        confirmParams: tx.confirmParams,
        boc,
        account,
        product: 'stars',
      }),
    ).rejects.toMatchObject({ kind: 'SESSION_INVALID' });

    let releaseFlow!: () => void;
    const held = creator.exclusive(() => new Promise<void>((resolve) => (releaseFlow = resolve)));
    await creator.confirm({
      confirmMethod: tx.confirmMethod,
      confirmParams: tx.confirmParams,
      boc,
      account,
      product: 'stars',
    });
    releaseFlow();
    await held;
  });

  it('warms up every session: live ones are synced for their first order, a dead one is named', async () => {
    const live = newClient();
    const dead = new FragmentClient({
      baseUrl: server.baseUrl,
      cookies: server.freshCookies().replace(/stel_token=[^;]+/, 'stel_token=00ff'),
      timeoutMs: 5_000,
    });
    const pool = new FragmentSessionPool([live, dead]);
    const results = await pool.warmUp();
    expect(results.find((r) => r.sessionId === live.sessionId())).toEqual({ sessionId: live.sessionId() });
    expect(results.find((r) => r.sessionId === dead.sessionId())!.error).toMatchObject({ kind: 'SESSION_INVALID' });

    // Page and hash read at warm-up: the first order loads no page. Its flow still starts anew
    // with one state sync and one price sync (docs/fragment-protocol.md §20.1).
    const calls = () => server.sim.stats().calls;
    const count = () => ({
      pages: calls()['GET /stars/buy'] ?? 0,
      syncs: (calls()['updateStarsBuyState'] ?? 0) + (calls()['updateStarsPrices'] ?? 0),
    });
    const before = count();
    const found = await live.searchRecipient('stars', 'alice', 50);
    await live.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
    expect(count()).toEqual({ pages: before.pages, syncs: before.syncs + 2 });
  });

  it('names the account a session belongs to: sessions of one login share it', () => {
    const a = newClient();
    const b = newClient();
    const other = new FragmentClient({
      baseUrl: server.baseUrl,
      cookies: server.freshCookies().replace(/stel_token=[^;]+/, 'stel_token=00ff'),
    });
    expect(a.sessionId()).not.toBe(b.sessionId());
    expect(a.accountId()).toBe(b.accountId());
    expect(other.accountId()).not.toBe(a.accountId());
    expect(a.accountId()).toMatch(/^[0-9a-f]{12}$/);
  });

  it('falls back to the first session for an unknown id', () => {
    const pool = new FragmentSessionPool([newClient(), newClient()]);
    expect(pool.session('not-a-session')).toBe(pool.clients[0]);
    expect(pool.session(undefined)).toBe(pool.clients[0]);
    expect(pool.session(pool.clients[1]!.sessionId())).toBe(pool.clients[1]);
  });
});
