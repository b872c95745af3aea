import { Address, beginCell, Cell, toNano } from '@ton/core';
import request from 'supertest';
import { waitFor } from '@starsgate/platform/testing';
import { readComment } from '../../src/fragment/comment-payload';
import { buildJettonTransfer, parseJettonTransfer } from '../../src/fragment/jetton-payload';
import { createHarness, type Harness, type Json, loggedInClient, type TestClient } from './harness';
import { Payer } from './payer';

/** search → sync → init → link for one order; returns init and link answers. */
async function order(
  c: TestClient,
  payer: Payer,
  opts: { product: 'stars' | 'premium'; username: string; quantity: number; method: 'ton' | 'usdt_ton' },
): Promise<{ init: Json; link: Json }> {
  const stars = opts.product === 'stars';
  const search = await c.api(stars ? 'searchStarsRecipient' : 'searchPremiumGiftRecipient', {
    query: opts.username,
    [stars ? 'quantity' : 'months']: stars ? '' : opts.quantity,
  });
  expect(search.ok).toBe(true);
  await c.api(stars ? 'updateStarsBuyState' : 'updatePremiumState', { mode: 'new', lv: 'false', dh: '1' });
  const init = await c.api(stars ? 'initBuyStarsRequest' : 'initGiftPremiumRequest', {
    recipient: search.found.recipient,
    [stars ? 'quantity' : 'months']: opts.quantity,
    payment_method: opts.method,
  });
  expect(init.req_id).toBeDefined();
  const link = await c.api(stars ? 'getBuyStarsLink' : 'getGiftPremiumLink', {
    id: init.req_id,
    show_sender: 0,
    transaction: 1,
    account: payer.account(),
    device: JSON.stringify({
      platform: 'linux',
      appName: 'starsgate',
      maxProtocolVersion: 2,
      features: ['SendTransaction'],
    }),
  });
  expect(link.ok).toBe(true);
  return { init, link };
}

async function pollState(
  c: TestClient,
  product: 'stars' | 'premium',
  until: (s: Json) => boolean,
  timeoutMs = 10_000,
): Promise<Json> {
  return waitFor(
    async () => {
      const s = await c.api(product === 'stars' ? 'updateStarsBuyState' : 'updatePremiumState', {
        mode: 'new',
        lv: 'false',
        dh: '1',
      });
      return until(s) ? s : undefined;
    },
    { timeoutMs, intervalMs: 100 },
  );
}

describe('payments on the local chain (echo mode: transaction.from is the account sent)', () => {
  let h: Harness;
  let payer: Payer;

  beforeAll(async () => {
    h = await createHarness({ faults: { transactionFrom: 'echo' } });
    payer = new Payer(h.chain, 'main');
    await h.chain.fund(payer.address, { gram: toNano('100'), usdt: 1_000_000_000n });
  });
  afterAll(async () => h.close());

  it('delivers Stars paid in GRAM with the exact returned message + confirmReq', async () => {
    const c = await loggedInClient(h);
    const { init, link } = await order(c, payer, { product: 'stars', username: '@alice', quantity: 50, method: 'ton' });
    expect(init.amount).toBe('0.4412');
    const msg = link.transaction.messages[0];
    expect(msg.address).toBe(h.sim.receivingAddresses.stars.toString({ bounceable: false }));
    expect(msg.amount).toBe('441200000');
    expect(link.transaction.from).toBe(payer.address.toRawString());

    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    const confirm = await c.api('confirmReq', {
      id: link.confirm_params.id,
      boc,
      account: payer.account(),
      device: '{}',
    });
    expect(confirm).toEqual({ ok: true });

    const done = await pollState(c, 'stars', (s) => s.mode === 'done');
    expect(done.need_update).toBe(false);
    expect(done.html).toContain('@alice');
    const delivered = h.sim.stats().deliveredOrders.filter((d) => d.username === 'alice');
    expect(delivered).toHaveLength(1);
    expect(delivered[0]).toMatchObject({ product: 'stars', quantity: 50, paymentMethod: 'ton' });
    expect(delivered[0]!.txHash).toMatch(/^[0-9a-f]{64}$/);
    expect(msg.payload).toBe(
      beginCell()
        .storeUint(0, 32)
        .storeBuffer(Buffer.from(`50 Telegram Stars \n\nRef#${delivered[0]!.ref}`).subarray(0, 35))
        .endCell()
        .toBoc({ idx: false, crc32: false })
        .toString('base64'), // standard base64 with padding, as Fragment's live answers carry it
    );
    expect(await h.chain.getBalance(h.sim.receivingAddresses.stars)).toBeGreaterThanOrEqual(441_200_000n);
  });

  it("delivers Premium paid in USDT via the payer's own jetton wallet", async () => {
    const c = await loggedInClient(h, '/premium/gift');
    const { init, link } = await order(c, payer, {
      product: 'premium',
      username: 'bob',
      quantity: 6,
      method: 'usdt_ton',
    });
    expect(init.amount).toBe('15.99');
    const msg = link.transaction.messages[0];
    const jw = await h.chain.getJettonWalletAddress(payer.address);
    expect(msg.address).toBe(jw.toString({ bounceable: true }));
    expect(msg.amount).toBe('50000000');
    const before = await h.chain.getJettonBalance(h.sim.receivingAddresses.premium);

    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    expect(await c.api('confirmReq', { id: init.req_id, boc, account: payer.account(), device: '{}' })).toEqual({
      ok: true,
    });
    await pollState(c, 'premium', (s) => s.mode === 'done' && s.need_update === false);
    const delivered = h.sim.stats().deliveredOrders.filter((d) => d.username === 'bob');
    expect(delivered).toEqual([
      expect.objectContaining({ product: 'premium', quantity: 6, paymentMethod: 'usdt_ton' }),
    ]);
    expect((await h.chain.getJettonBalance(h.sim.receivingAddresses.premium)) - before).toBe(15_990_000n);
  });

  it('never delivers a wrong-amount payment: confirm is rejected, state stays processing then shows an error', async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'carol', quantity: 100, method: 'ton' });
    const boc = await payer.sign(link.transaction, (m) => ({ ...m, value: m.value - 1n }));
    await h.chain.submitExternal(boc);
    const confirm = await c.api('confirmReq', {
      id: link.confirm_params.id,
      boc,
      account: payer.account(),
      device: '{}',
    });
    expect(confirm.error).toBeDefined();
    expect(confirm.reason).toBe('wrong amount');
    const failed = await pollState(c, 'stars', (s) => /Payment failed/.test(s.html));
    expect(failed.mode).toBe('processing');
    expect(h.sim.stats().deliveredOrders.some((d) => d.username === 'carol')).toBe(false);
  });

  it('never delivers a USDT transfer with a wrong jetton amount', async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'bob', quantity: 70, method: 'usdt_ton' });
    const boc = await payer.sign(link.transaction, (m) => {
      const t = parseJettonTransfer(m.body)!;
      return { ...m, body: buildJettonTransfer({ ...t, amount: t.amount - 1n }) };
    });
    await h.chain.submitExternal(boc);
    const confirm = await c.api('confirmReq', { id: link.confirm_params.id, boc });
    expect(confirm.reason).toBe('wrong jetton amount');
    await pollState(c, 'stars', (s) => /Payment failed/.test(s.html));
    const seen = (await request(h.app).get('/admin/fragment/payments')).body as Json[];
    expect(seen).toContainEqual(
      expect.objectContaining({
        kind: 'usdt_ton',
        outcome: 'rejected',
        reason: 'wrong jetton amount 1049999 (expected 1050000)',
      }),
    );
    expect(h.sim.stats().deliveredOrders.some((d) => d.quantity === 70)).toBe(false);
  });

  it('never delivers a re-encoded comment (same text, standard snake cell)', async () => {
    // A ≤35-byte comment is the same cell either way, so use a two-cell Premium comment.
    const c = await loggedInClient(h, '/premium/gift');
    const { link } = await order(c, payer, { product: 'premium', username: 'dave', quantity: 3, method: 'ton' });
    const boc = await payer.sign(link.transaction, (m) => {
      const text = readComment(m.body)!;
      expect(text).toMatch(/^Telegram Premium for 3 months \n\nRef#[A-Za-z0-9]{9}$/);
      return { ...m, body: beginCell().storeUint(0, 32).storeStringTail(text).endCell() };
    });
    await h.chain.submitExternal(boc);
    const confirm = await c.api('confirmReq', {
      id: link.confirm_params.id,
      boc,
      account: payer.account(),
      device: '{}',
    });
    expect(confirm.reason).toMatch(/re-encoded comment/);
    await pollState(c, 'premium', (s) => /Payment failed/.test(s.html));
    expect(h.sim.stats().deliveredOrders.some((d) => d.username === 'dave')).toBe(false);
  });

  it('needs confirmReq: a paid but unconfirmed order waits; confirm then delivers exactly once even if paid twice', async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'erin', quantity: 60, method: 'ton' });
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    await new Promise((r) => setTimeout(r, 600)); // several blocks + longer than the delivery delays
    const state = await c.api('updateStarsBuyState', { mode: 'new', lv: 'false', dh: '1' });
    expect(state.mode).toBe('new');
    // A second payment of the same order (a client bug): must not deliver twice.
    const second = await payer.sign(link.transaction);
    await h.chain.submitExternal(second);
    expect(
      await c.api('confirmReq', { id: link.confirm_params.id, boc, account: payer.account(), device: '{}' }),
    ).toEqual({ ok: true });
    await pollState(c, 'stars', (s) => s.mode === 'done');
    await new Promise((r) => setTimeout(r, 600));
    expect(h.sim.stats().deliveredOrders.filter((d) => d.username === 'erin')).toHaveLength(1);
    const orders = (await request(h.app).get('/admin/fragment/orders')).body as Json[];
    const erin = orders.find((o) => o.username === 'erin')!;
    expect(erin.status).toBe('done');
    expect(erin.extraPayments).toEqual([expect.objectContaining({ reason: 'duplicate payment' })]);
  });

  it('strict confirm rejects a bare transfer body', async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'alice', quantity: 55, method: 'ton' });
    const payload = link.transaction.messages[0].payload as string;
    const bodyBoc = Cell.fromBoc(Buffer.from(payload, 'base64'))[0]!.toBoc().toString('base64');
    const confirm = await c.api('confirmReq', { id: link.confirm_params.id, boc: bodyBoc });
    expect(confirm.reason).toBe('boc is not an external-in message');
  });
});

describe('linked mode: transaction.from is the wallet linked to the account; any wallet pays by Ref#', () => {
  let h: Harness;
  let payer: Payer;
  let other: Payer;

  beforeAll(async () => {
    h = await createHarness();
    payer = new Payer(h.chain, 'linked-mode-payer');
    other = new Payer(h.chain, 'linked-mode-other');
    await h.chain.fund(payer.address, { gram: toNano('100'), usdt: 1_000_000_000n });
    await h.chain.fund(other.address, { gram: toNano('100'), usdt: 1_000_000_000n });
  });
  afterAll(async () => h.close());

  const linked = () => h.sim.linkedWallet.address;

  it("names the linked wallet as from; a GRAM payment of Fragment's very message from the payer is delivered", async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'alice', quantity: 80, method: 'ton' });
    expect(link.transaction.from).toBe(linked().toRawString());
    expect(link.transaction.from).not.toBe(payer.address.toRawString());
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    expect(
      await c.api('confirmReq', { id: link.confirm_params.id, boc, account: payer.account(), device: '{}' }),
    ).toEqual({ ok: true });
    await pollState(c, 'stars', (s) => s.mode === 'done');
    expect(h.sim.stats().deliveredOrders.filter((d) => d.quantity === 80)).toHaveLength(1);
  });

  it("aims a USDT transfer at the linked wallet's jetton wallet; the same transfer through the payer's own jetton wallet is delivered", async () => {
    const c = await loggedInClient(h, '/premium/gift');
    const { link } = await order(c, payer, { product: 'premium', username: 'bob', quantity: 3, method: 'usdt_ton' });
    const msg = link.transaction.messages[0];
    expect(Address.parse(msg.address).equals(await h.chain.getJettonWalletAddress(linked()))).toBe(true);
    const fragmentTransfer = parseJettonTransfer(Cell.fromBoc(Buffer.from(msg.payload, 'base64'))[0]!)!;
    expect(fragmentTransfer.responseDestination.equals(linked())).toBe(true);
    const before = await h.chain.getJettonBalance(h.sim.receivingAddresses.premium);

    const ownJettonWallet = await h.chain.getJettonWalletAddress(payer.address);
    const boc = await payer.sign(link.transaction, (m) => ({
      ...m,
      to: ownJettonWallet,
      body: buildJettonTransfer({ ...fragmentTransfer, queryId: 4242n, responseDestination: payer.address }),
    }));
    await h.chain.submitExternal(boc);
    expect(
      await c.api('confirmReq', { id: link.confirm_params.id, boc, account: payer.account(), device: '{}' }),
    ).toEqual({ ok: true });
    await pollState(c, 'premium', (s) => s.mode === 'done' && s.need_update === false);
    expect(h.sim.stats().deliveredOrders.filter((d) => d.username === 'bob' && d.quantity === 3)).toHaveLength(1);
    expect((await h.chain.getJettonBalance(h.sim.receivingAddresses.premium)) - before).toBe(11_990_000n);
  });

  it("refuses a USDT confirm whose transfer does not go through the signer's own jetton wallet", async () => {
    const c = await loggedInClient(h);
    const { link } = await order(c, payer, { product: 'stars', username: 'carol', quantity: 90, method: 'usdt_ton' });
    const boc = await other.sign(link.transaction); // Fragment's message as it is: the linked wallet's jetton wallet
    await h.chain.submitExternal(boc);
    const confirm = await c.api('confirmReq', { id: link.confirm_params.id, boc });
    expect(confirm.reason).toBe("not sent to the signer's own jetton wallet");
    expect(h.sim.stats().deliveredOrders.some((d) => d.quantity === 90)).toBe(false);
  });

  it('echo mode still confirms only the external of transaction.from', async () => {
    await request(h.app).put('/admin/fragment/faults').send({ transactionFrom: 'echo' });
    try {
      const c = await loggedInClient(h);
      const { link } = await order(c, payer, { product: 'stars', username: 'erin', quantity: 95, method: 'ton' });
      expect(link.transaction.from).toBe(payer.address.toRawString());
      const boc = await other.sign(link.transaction);
      const confirm = await c.api('confirmReq', { id: link.confirm_params.id, boc });
      expect(confirm.reason).toBe('external message is not addressed to transaction.from');
    } finally {
      await request(h.app).post('/admin/fragment/faults/reset');
    }
  });
});
