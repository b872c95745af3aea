/**
 * FragmentClient against the sandbox's real Fragment simulator over HTTP: the Stars and Premium
 * flows end to end (search → sync → quote → init → link → sign → broadcast → confirm → poll).
 */
import { Address } from '@ton/core';
import { decodeCommentPayload, FragmentClient } from '../src';
import { buyStars } from './support/buy-stars';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

let server: SimulatorServer;
const payer = new TestWallet('payer');

beforeAll(async () => {
  // The client signs what Fragment returns: the echo mode names our wallet as transaction.from, so
  // its USDT message targets our own jetton wallet (the linked mode's rebuild is the worker's, docs/fragment-protocol.md §17).
  server = await startSimulator({ faults: { transactionFrom: 'echo' } });
  await server.chain.fund(payer.address, { gram: 100_000_000_000n, usdt: 100_000_000n });
});

afterAll(async () => {
  await server?.close();
});

function newClient(options: Partial<ConstructorParameters<typeof FragmentClient>[0]> = {}): FragmentClient {
  return new FragmentClient({ baseUrl: server.baseUrl, cookies: server.freshCookies(), timeoutMs: 5_000, ...options });
}

/** Holds the client's flow mutex until `release()`. */
function holdFlow(client: FragmentClient): { release(): Promise<void> } {
  let releaseFlow!: () => void;
  const held = client.exclusive(() => new Promise<void>((resolve) => (releaseFlow = resolve)));
  return {
    release: async () => {
      releaseFlow();
      await held;
    },
  };
}

/** `call` does not settle while `flow` is held, and does once it is released. */
async function expectToWaitFor(flow: { release(): Promise<void> }, call: Promise<unknown>): Promise<void> {
  let settled = false;
  const done = call.then(() => (settled = true));
  await new Promise((r) => setTimeout(r, 100));
  expect(settled).toBe(false);
  await flow.release();
  await done;
  expect(settled).toBe(true);
}

async function waitDone(client: FragmentClient, product: 'stars' | 'premium'): Promise<string[]> {
  const modes: string[] = [];
  const deadline = Date.now() + 15_000;
  for (;;) {
    const state = await client.pollOrderState(product);
    modes.push(state.mode);
    if (state.done) return modes;
    if (Date.now() > deadline) throw new Error(`not done; modes ${modes.join(',')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('Stars, paid in GRAM', () => {
  it('runs search → quote → init → link → sign → confirm → done, signing the exact returned cell', async () => {
    const client = newClient();
    const rate = await client.tonRate();
    expect(rate).toBe('1.7'); // as the page writes it (JSON number)

    const found = await client.searchRecipient('stars', '@alice', 50);
    expect(found.recipient).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(found.name).toBe('Alice Anders');
    expect(found.photoUrl).toMatch(/^https:\/\/.+alice\.jpg$/);

    expect(await client.syncState('stars')).toMatchObject({ mode: 'new', needUpdate: false });
    // $0.75 / 1.70 = 0.44117… → rounded up to 4 decimals (docs/fragment-protocol.md §14.2).
    expect(await client.quoteQuantity('stars', 50)).toEqual({ gramNano: 441_200_000n, usd: '0.75' });

    const order = await client.initRequest({
      product: 'stars',
      recipient: found.recipient,
      amount: 50,
      paymentMethod: 'ton',
    });
    expect(order.amount).toBe('0.4412');
    expect(order.reqId.length).toBeGreaterThanOrEqual(20);

    const account = payer.account();
    const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account });
    expect(tx.from).toBe(account.address);
    expect(tx.validUntil).toBeGreaterThan(Math.floor(Date.now() / 1000) + 15);
    expect(tx.confirmMethod).toBe('confirmReq');
    expect(tx.confirmParams).toEqual({ id: order.reqId });
    expect(tx.messages).toHaveLength(1);
    const [message] = tx.messages;
    expect(Address.parse(message!.address).equals(server.sim.receivingAddresses.stars)).toBe(true);
    expect(message!.amount).toBe('441200000');
    const comment = decodeCommentPayload(message!.payload!);
    expect(comment).toMatchObject({ product: 'stars', quantity: 50 });
    expect(comment.ref).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(comment.jetton).toBeUndefined();

    const boc = await payer.sign(server.chain, tx);
    await server.chain.submitExternal(boc);
    await client.confirm({
      confirmMethod: tx.confirmMethod,
      confirmParams: tx.confirmParams,
      boc,
      account,
      product: 'stars',
    });

    const modes = await waitDone(client, 'stars');
    expect(modes[modes.length - 1]).toBe('done');
    const delivered = server.sim.stats().deliveredOrders.find((d) => d.ref === comment.ref);
    expect(delivered).toMatchObject({ product: 'stars', username: 'alice', quantity: 50, paymentMethod: 'ton' });

    // The account's history names each delivered order (recipient, quantity, when), newest first.
    const history = await client.deliveryHistory('stars');
    expect(history.shape).toBe('listed');
    expect(history.rows[0]).toMatchObject({ recipient: 'alice', quantity: 50 });
    expect(history.rows[0]!.text).toMatch(/^@alice \| 50 \| 0\.4412 \|/);
    expect(history.rows[0]!.deliveredAt).toBeGreaterThan(Date.now() - 60_000);
    expect(history.rows[0]!.deliveredAt).toBeLessThanOrEqual(Date.now());
    expect(await client.deliveryHistory('premium')).toMatchObject({ shape: 'empty', rows: [] });
  });
});

describe('a large order, amounts written with thousands separators', () => {
  it('quotes, inits, pays and finds in the history 200,000 Stars whose price Fragment writes as 1,764.7059', async () => {
    const client = newClient();
    const whale = new TestWallet('large-order-payer');
    await server.chain.fund(whale.address, { gram: 2_000_000_000_000n });
    // $3,000 / 1.70 = 1764.70588… → 1764.7059 TON, shown as `1,764<span class="mini-frac">.7059</span>`.
    expect(await client.quoteQuantity('stars', 200_000)).toEqual({ gramNano: 1_764_705_900_000n, usd: '3000.00' });
    const since = Date.now() - 1_000;
    const { ref } = await buyStars(server, client, whale, 'alice', 200_000);
    const order = server.sim.stats().deliveredOrders.find((d) => d.ref === ref);
    expect(order).toBeDefined();
    const history = await client.deliveryHistory('stars', { since });
    expect(history.rows[0]).toMatchObject({ recipient: 'alice', quantity: 200_000 });
    expect(history.rows[0]!.text).toContain('200,000 | 1,764.7059');
  });

  it('reads the init amount as Fragment writes it (`1,764.7059`) and pays exactly the nanoTON it stands for', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'bob', 200_000);
    const order = await client.initRequest({
      product: 'stars',
      recipient: found.recipient,
      amount: 200_000,
      paymentMethod: 'ton',
    });
    expect(order.amount).toBe('1764.7059');
    const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() });
    expect(tx.messages[0]!.amount).toBe('1764705900000');
  });
});

describe('Premium', () => {
  it('reads the three option prices from /premium/gift', async () => {
    const prices = await newClient().optionPrices('premium');
    expect(prices).toEqual({
      3: { gramNano: 7_053_000_000n, usd: '11.99' }, // 11.99 / 1.70 = 7.05294… → 7.0530
      6: { gramNano: 9_405_900_000n, usd: '15.99' },
      12: { gramNano: 17_053_000_000n, usd: '28.99' },
    });
  });

  it('gifts 6 months paid in USDT: jetton transfer from our own jetton wallet carrying the comment', async () => {
    const client = newClient();
    const found = await client.searchRecipient('premium', 'erin', 6);
    expect(found.name).toBe("Erin O'Neil"); // sent HTML-escaped, unescaped by the client
    const order = await client.initRequest({
      product: 'premium',
      recipient: found.recipient,
      amount: 6,
      paymentMethod: 'usdt_ton',
    });
    expect(order.amount).toBe('15.99');

    const account = payer.account();
    const tx = await client.getTransaction({ product: 'premium', reqId: order.reqId, account, showSender: true });
    const [message] = tx.messages;
    const ownJettonWallet = await server.chain.getJettonWalletAddress(payer.address);
    expect(Address.parse(message!.address).equals(ownJettonWallet)).toBe(true);
    const decoded = decodeCommentPayload(message!.payload!);
    expect(decoded).toMatchObject({ product: 'premium', quantity: 6 });
    expect(decoded.text).toBe(`Telegram Premium for 6 months \n\nRef#${decoded.ref}`);
    expect(decoded.jetton).toMatchObject({
      amount: 15_990_000n,
      destination: server.sim.receivingAddresses.premium.toRawString(),
      responseDestination: payer.address.toRawString(),
      forwardTonAmount: 1n,
    });

    const boc = await payer.sign(server.chain, tx);
    await server.chain.submitExternal(boc);
    await client.confirm({
      confirmMethod: tx.confirmMethod,
      confirmParams: tx.confirmParams,
      boc,
      account,
      product: 'premium',
    });
    await waitDone(client, 'premium');
    expect(server.sim.stats().deliveredOrders.find((d) => d.ref === decoded.ref)).toMatchObject({
      product: 'premium',
      username: 'erin',
      quantity: 6,
      paymentMethod: 'usdt_ton',
    });
  });

  it('gifts 12 months in GRAM up to the transaction ("1 year" comment)', async () => {
    const client = newClient();
    const found = await client.searchRecipient('premium', 't.me/bob', 12);
    const order = await client.initRequest({
      product: 'premium',
      recipient: found.recipient,
      amount: 12,
      paymentMethod: 'ton',
    });
    expect(order.amount).toBe('17.053');
    const tx = await client.getTransaction({ product: 'premium', reqId: order.reqId, account: payer.account() });
    expect(tx.messages[0]!.amount).toBe('17053000000');
    expect(Address.parse(tx.messages[0]!.address).equals(server.sim.receivingAddresses.premium)).toBe(true);
    expect(decodeCommentPayload(tx.messages[0]!.payload!)).toMatchObject({ product: 'premium', quantity: 12 });
  });
});

describe('session mechanics', () => {
  it('reads the page once per hash TTL and stores the cookies Fragment sets', async () => {
    const before = server.sim.stats().calls['GET /stars/buy'] ?? 0;
    // No stel_ssid: the simulator issues one, which must be stored and sent back.
    const client = new FragmentClient({ baseUrl: server.baseUrl, cookies: 'stel_dt=-180' });
    await client.searchRecipient('stars', 'alice', 50);
    await client.searchRecipient('stars', 'bob', 50);
    await client.quoteQuantity('stars', 100);
    expect(client.cookieNames()).toContain('stel_ssid');
    expect((server.sim.stats().calls['GET /stars/buy'] ?? 0) - before).toBe(1);
  });

  it('paces HTTP calls at least minIntervalMs apart', async () => {
    const client = newClient({ minIntervalMs: 150 });
    const started = Date.now();
    await client.searchRecipient('stars', 'alice', 50); // page GET + search
    await client.quoteQuantity('stars', 50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
  });

  it('keeps an exclusive flow uninterrupted by other flow calls, in arrival order', async () => {
    const seen: string[] = [];
    const client = newClient({ logger: { debug: (m: string) => seen.push(m.replace(/ -> .*/, '')) } });
    const flow = client.exclusive(async (c) => {
      const found = await c.searchRecipient('stars', 'carol', 50);
      return c.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
    });
    const quotes = Promise.all([100, 200].map((quantity) => client.quoteQuantity('stars', quantity)));
    const [order, quoted] = await Promise.all([flow, quotes]);
    expect(order.amount).toBe('0.4412');
    expect(quoted).toHaveLength(2);
    const calls = seen.filter((m) => m.startsWith('fragment ') && !m.includes(':'));
    const initAt = calls.findIndex((m) => m.includes('initBuyStarsRequest'));
    // The flow's sync (update state, prices) and init ran before either outside quote.
    expect(calls.slice(0, initAt + 1).filter((m) => m.includes('updateStarsPrices'))).toHaveLength(1);
    expect(calls.slice(initAt + 1).filter((m) => m.includes('updateStarsPrices'))).toHaveLength(2);
  });

  it('searches and links beside a flow in progress; flow calls wait for it', async () => {
    const client = newClient();
    const found = await client.searchRecipient('stars', 'bob', 60);
    const order = await client.initRequest({
      product: 'stars',
      recipient: found.recipient,
      amount: 60,
      paymentMethod: 'ton',
    });
    const flow = holdFlow(client);
    // The search reads no flow state and the link names its order: neither waits for the flow.
    await expect(client.searchRecipient('stars', 'alice', 50)).resolves.toMatchObject({ name: 'Alice Anders' });
    const tx = await client.getTransaction({ product: 'stars', reqId: order.reqId, account: payer.account() });
    expect(tx.messages).toHaveLength(1);
    await expectToWaitFor(flow, client.quoteQuantity('stars', 100));
  });

  it('lets a flow view skip the mutex only while its flow runs', async () => {
    const client = newClient();
    let view!: FragmentClient;
    // Inside the flow the view calls straight through: waiting for the mutex here would deadlock.
    await client.exclusive(async (c) => {
      view = c;
      await c.quoteQuantity('stars', 50);
    });
    const flow = holdFlow(client);
    await expectToWaitFor(flow, view.quoteQuantity('stars', 100));
  });
});
