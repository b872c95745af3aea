import { beginCell, internal, SendMode, storeMessage, external, toNano } from '@ton/core';
import request from 'supertest';
import { waitFor } from '@starsgate/platform/testing';
import { buildCommentCell, decodePayload, readComment } from '../../src/fragment/comment-payload';
import { OP_TRANSFER_NOTIFICATION } from '../../src/fragment/jetton-payload';
import { createHarness, type Harness, type Json, loggedInClient, type TestClient } from './harness';
import { Payer } from './payer';

const sync = { mode: 'new', lv: 'false', dh: '1' };
const putFaults = (h: Harness, body: unknown) =>
  request(h.app)
    .put('/admin/fragment/faults')
    .send(body as object)
    .expect(200);

async function linkFor(
  c: TestClient,
  payer: Payer,
  username: string,
  quantity: number,
  method: 'ton' | 'usdt_ton' = 'ton',
): Promise<Json> {
  const f = await c.api('searchStarsRecipient', { query: username });
  await c.api('updateStarsBuyState', sync);
  const init = await c.api('initBuyStarsRequest', { recipient: f.found.recipient, quantity, payment_method: method });
  const link = await c.api('getBuyStarsLink', {
    id: init.req_id,
    show_sender: 0,
    transaction: 1,
    account: payer.account(),
    device: '{}',
  });
  expect(link.ok).toBe(true);
  return link;
}

describe('fault switches, observable over HTTP', () => {
  let h: Harness;
  let payer: Payer;
  beforeAll(async () => {
    h = await createHarness();
    payer = new Payer(h.chain, 'faults');
    await h.chain.fund(payer.address, { gram: toNano('50'), usdt: 100_000_000n });
  });
  afterAll(async () => h.close());
  afterEach(async () => {
    await request(h.app).post('/admin/fragment/faults/reset').expect(200);
  });

  it('admin: GET/PUT faults and config live, validation errors are 400', async () => {
    const put = await putFaults(h, {
      needVerify: true,
      methods: { searchStarsRecipient: { errorRate: 1, errorText: 'boom' } },
    });
    expect(put.body.needVerify).toBe(true);
    expect((await request(h.app).get('/admin/fragment/faults')).body.methods.searchStarsRecipient.errorText).toBe(
      'boom',
    );
    await putFaults(h, { methods: { searchStarsRecipient: null } });
    expect((await request(h.app).get('/admin/fragment/faults')).body.methods).toEqual({});
    expect((await request(h.app).put('/admin/fragment/config').send({ tonRate: 'abc' })).status).toBe(400);
    expect((await request(h.app).get('/admin/fragment/config')).body.tonRate).toBe('1.70');
    const receivers = (await request(h.app).get('/admin/fragment/receivers')).body;
    expect(receivers.stars).toBe(h.sim.receivingAddresses.stars.toString({ bounceable: false }));
    expect((await request(h.app).get('/admin/fragment/directory')).body).toHaveLength(11);
  });

  it('429 with Retry-After for the next N calls of a method, then normal', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { searchStarsRecipient: { rateLimitRate: 1, retryAfterSeconds: 7, count: 2 } } });
    for (let i = 0; i < 2; i++) {
      const res = await c.raw('searchStarsRecipient', { query: 'alice' });
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBe('7');
    }
    expect((await c.api('searchStarsRecipient', { query: 'alice' })).ok).toBe(true);
  });

  it('5xx and business-error rates', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { updateStarsPrices: { serverErrorRate: 1, serverErrorStatus: 503 } } });
    expect((await c.raw('updateStarsPrices', { quantity: 50 })).status).toBe(503);
    await putFaults(h, { methods: { updateStarsPrices: { serverErrorRate: 0, errorRate: 1, errorText: 'Flood' } } });
    expect(await c.api('updateStarsPrices', { quantity: 50 })).toEqual({ error: 'Flood' });
  });

  it('error rates are probabilistic (seeded), roughly the configured share', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { '*': { serverErrorRate: 0.5 } } });
    let failures = 0;
    for (let i = 0; i < 40; i++) if ((await c.raw('searchStarsRecipient', { query: 'bob' })).status === 502) failures++;
    expect(failures).toBeGreaterThan(8);
    expect(failures).toBeLessThan(32);
  });

  it('Cloudflare 403 "Just a moment..." on pages and API', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { page: { cloudflareRate: 1 }, '*': { cloudflareRate: 1 } } });
    const page = await c.page('/stars/buy');
    expect(page.status).toBe(403);
    expect(page.text).toContain('Just a moment...');
    const api = await c.raw('searchStarsRecipient', { query: 'alice' });
    expect(api.status).toBe(403);
    expect(api.headers['content-type']).toMatch(/text\/html/);
  });

  it('latency range is applied per method', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { searchStarsRecipient: { latency: { minMs: 250, maxMs: 300 } } } });
    const t0 = Date.now();
    await c.api('searchStarsRecipient', { query: 'alice' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(245);
  });

  it('timeouts hang past the client timeout', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { methods: { updateStarsBuyState: { timeoutRate: 1 } } });
    await expect(c.raw('updateStarsBuyState', sync).timeout(300)).rejects.toThrow(/Timeout/i);
  });

  it('confirm error mode answers the configured error and does not record', async () => {
    const c = await loggedInClient(h);
    const link = await linkFor(c, payer, 'alice', 51);
    await putFaults(h, { confirm: 'error', confirmErrorText: 'Something went wrong' });
    const boc = await payer.sign(link.transaction);
    expect(await c.api('confirmReq', { id: link.confirm_params.id, boc })).toEqual({ error: 'Something went wrong' });
  });

  it('lost confirm: ok but not recorded → never done until a later confirm; timeout confirm hangs', async () => {
    const c = await loggedInClient(h);
    const link = await linkFor(c, payer, 'bob', 52);
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    await putFaults(h, { confirm: 'lost' });
    expect(await c.api('confirmReq', { id: link.confirm_params.id, boc })).toEqual({ ok: true });
    await new Promise((r) => setTimeout(r, 700));
    expect((await c.api('updateStarsBuyState', sync)).mode).toBe('new');
    await putFaults(h, { confirm: 'timeout' });
    await expect(c.raw('confirmReq', { id: link.confirm_params.id, boc }).timeout(300)).rejects.toThrow(/Timeout/i);
    await putFaults(h, { confirm: 'ok' });
    expect(await c.api('confirmReq', { id: link.confirm_params.id, boc })).toEqual({ ok: true });
    await waitFor(async () => ((await c.api('updateStarsBuyState', sync)).mode === 'done' ? true : undefined));
  });

  it('done=never keeps a paid order in processing (need_update true)', async () => {
    const c = await loggedInClient(h);
    await putFaults(h, { done: 'never' });
    const link = await linkFor(c, payer, 'carol', 53);
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    expect(await c.api('confirmReq', { id: link.confirm_params.id, boc })).toEqual({ ok: true });
    const s = await waitFor(async () => {
      const st = await c.api('updateStarsBuyState', sync);
      return st.mode === 'processing' ? st : undefined;
    });
    expect(s.need_update).toBe(true);
    await new Promise((r) => setTimeout(r, 500));
    expect((await c.api('updateStarsBuyState', sync)).mode).toBe('processing');
    expect(h.sim.stats().deliveredOrders.some((d) => d.quantity === 53)).toBe(false);
  });

  it('timeout_recorded confirm: client times out but the confirm counted; done=slow delays done', async () => {
    await request(h.app).put('/admin/fragment/config').send({ slowDoneDelayMs: 1_500 }).expect(200);
    const c = await loggedInClient(h);
    await putFaults(h, { confirm: 'timeout_recorded', done: 'slow' });
    const link = await linkFor(c, payer, 'erin', 56);
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    await new Promise((r) => setTimeout(r, 300)); // included
    await expect(c.raw('confirmReq', { id: link.confirm_params.id, boc }).timeout(300)).rejects.toThrow(/Timeout/i);
    await new Promise((r) => setTimeout(r, 700));
    expect((await c.api('updateStarsBuyState', sync)).mode).toBe('processing'); // a normal done would be at ~250 ms
    await waitFor(async () => ((await c.api('updateStarsBuyState', sync)).mode === 'done' ? true : undefined), {
      timeoutMs: 5_000,
    });
    expect(h.sim.stats().deliveredOrders.filter((d) => d.quantity === 56)).toHaveLength(1);
  });

  it("ignores a forged transfer_notification that does not come from the receiver's USDT jetton wallet", async () => {
    const c = await loggedInClient(h);
    const link = await linkFor(c, payer, 'dave', 54, 'usdt_ton');
    const comment = decodePayload(link.transaction.messages[0].payload).refs[0]!;
    expect(readComment(comment)).toMatch(/^54 Telegram Stars/);
    // Send a notification-shaped message straight from the payer wallet to the Stars wallet.
    const forged = beginCell()
      .storeUint(OP_TRANSFER_NOTIFICATION, 32)
      .storeUint(1, 64)
      .storeCoins(810_000n)
      .storeAddress(payer.address)
      .storeBit(1)
      .storeRef(comment)
      .endCell();
    expect(forged.refs[0]!.hash().equals(buildCommentCell(readComment(comment)!).hash())).toBe(true);
    const seqno = await payer.seqno();
    const body = payer.wallet.createTransfer({
      seqno,
      secretKey: payer.keys.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY,
      messages: [internal({ to: h.sim.receivingAddresses.stars, value: toNano('0.01'), bounce: false, body: forged })],
      timeout: link.transaction.validUntil,
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: payer.address, init: seqno === 0 ? payer.wallet.init : undefined, body })))
      .endCell()
      .toBoc()
      .toString('base64');
    await h.chain.submitExternal(boc);
    await new Promise((r) => setTimeout(r, 400));
    await h.sim.idle();
    const orders = (await request(h.app).get('/admin/fragment/orders')).body as Json[];
    const o = orders.find((x) => x.quantity === 54)!;
    expect(o.paid).toBeUndefined();
    expect(o.badPayment).toBeUndefined();
    expect(o.status).toBe('pending');
    const seen = (await request(h.app).get('/admin/fragment/payments')).body as Json[];
    expect(seen).toContainEqual(
      expect.objectContaining({
        kind: 'usdt_ton',
        outcome: 'ignored',
        reason: expect.stringMatching(/not from the receiver's USDT jetton wallet/),
      }),
    );
  });
});
