import { toNano } from '@ton/core';
import request from 'supertest';
import { waitFor } from '@starsgate/platform/testing';
import { decodePayload, readComment } from '../../src/fragment/comment-payload';
import { createHarness, type Harness, type Json, loggedInClient, type TestClient } from './harness';
import { Payer } from './payer';

/**
 * A Premium giveaway (protocol reference "Evidence, 2026-11-28"): `/premium/giveaway`, its state,
 * search, prices, init and link calls, the payment on the local chain, and its history row.
 */
const NO_CHANNELS = { error: 'No Telegram channels found' };
const DEVICE = JSON.stringify({
  platform: 'linux',
  appName: 'starsgate',
  maxProtocolVersion: 2,
  features: ['SendTransaction'],
});

const search = (c: TestClient, query: string) =>
  c.api('searchPremiumGiveawayRecipient', { query, quantity: 10, months: 3 });
const state = (c: TestClient, quantity = 1) =>
  c.api('updatePremiumGiveawayState', { mode: 'new', lv: 'false', dh: '1', quantity });

async function giveawayInit(c: TestClient, fields: Record<string, string | number>): Promise<Json> {
  const found = await search(c, '@starsgate_channel');
  await state(c, 10);
  return c.api('initGiveawayPremiumRequest', { recipient: found.found.recipient, payment_method: 'ton', ...fields });
}

describe('Premium giveaways', () => {
  let h: Harness;
  let payer: Payer;

  beforeAll(async () => {
    h = await createHarness({ faults: { transactionFrom: 'echo' } });
    payer = new Payer(h.chain, 'giveaway');
    await h.chain.fund(payer.address, { gram: toNano('500'), usdt: 1_000_000_000n });
  });
  afterAll(async () => h.close());

  it('serves /premium/giveaway with the API hash, its flow state and the months priced for one winner', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    expect(c.hash).toMatch(/^[0-9a-f]+$/);
    const page = await c.page('/premium/giveaway');
    expect(page.status).toBe(200);
    expect(page.text).toContain('PremiumGiveaway.init(');
    expect(page.text).toMatch(/"mode":"new","lv":false,"dh":"\d{10}"/);
    expect(page.text).toContain('name="quantity"');
    for (const m of [3, 6, 12]) expect(page.text).toContain(`name="months" value="${m}"`);
    expect(page.text).toContain('name="payment_method" value="usdt_ton"');
    // 11.99 USD at 1.70 USD/TON for one winner's 3 months.
    expect(page.text).toContain('7<span class="mini-frac">.053</span>');
  });

  it('finds channels only; users, bots and unknown names get "No Telegram channels found"', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const found = await search(c, '@starsgate_channel');
    expect(found).toMatchObject({ ok: true, found: { myself: false, name: 'Starsgate Channel' } });
    expect(found.found.recipient).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await search(c, 'https://t.me/STARSGATE_CHANNEL')).found.recipient).toBe(found.found.recipient);
    expect((await search(c, 'starsgate_giveaways')).found.name).toBe('Starsgate Giveaways &amp; Co');
    expect((await search(c, 'news_channel')).ok).toBe(true);
    for (const who of ['@alice', '@helper_bot', '@premium_pat', 'nobody_here', ''])
      expect(await search(c, who)).toEqual(NO_CHANNELS);
    // A channel is still no recipient for a Premium gift.
    expect(await c.api('searchPremiumGiftRecipient', { query: '@starsgate_channel', months: 3 })).toEqual({
      error: 'Please enter a username assigned to a user.',
    });
  });

  it('prices a quantity: the months options for that many winners, the boosts and the button', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const prices = await c.api('updatePremiumGiveawayPrices', { quantity: 10 });
    expect(prices.error).toBeUndefined();
    expect(prices.boosts).toBe(40);
    expect(prices.button_label).toBe('Give Away 10 Premium Subscriptions');
    expect(prices.dh).toMatch(/^\d{10}$/);
    // 10 × 11.99 = 119.90 USD → 70.5295 TON; 10 × 28.99 = 289.90 USD → 170.5295 TON.
    expect(prices.options_html).toContain('name="months" value="3"');
    expect(prices.options_html).toContain('70<span class="mini-frac">.5295</span>');
    expect(prices.options_html).toContain('$119.90');
    expect(prices.options_html).toContain('$289.90');
    const state10 = await state(c, 10);
    expect(state10).toMatchObject({ mode: 'new', need_update: false });
    expect(state10.options_html).toContain('$119.90');
    for (const quantity of [0, 24_001, 'ten'])
      expect((await c.api('updatePremiumGiveawayPrices', { quantity })).error).toBe(
        'Please enter a number of winners between 1 and 24,000.',
      );
    expect((await c.api('updatePremiumGiveawayPrices', { quantity: 24_000 })).boosts).toBe(96_000);
  });

  it('refuses bad winners, months, payment methods and recipients with Fragment-style errors', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const winners = { error: 'Please enter a number of winners between 1 and 24,000.' };
    expect(await giveawayInit(c, { quantity: 0, months: 3 })).toEqual(winners);
    expect(await giveawayInit(c, { quantity: 24_001, months: 3 })).toEqual(winners);
    expect(await giveawayInit(c, { quantity: 10, months: 5 })).toEqual({
      error: 'Please choose a subscription period.',
    });
    expect(await giveawayInit(c, { quantity: 10, months: 3, payment_method: 'usdt_eth' })).toEqual({
      error: 'Access denied',
    });
    const user = await c.api('searchStarsRecipient', { query: '@alice' });
    await state(c, 10);
    expect(
      await c.api('initGiveawayPremiumRequest', {
        recipient: user.found.recipient,
        quantity: 10,
        months: 3,
        payment_method: 'ton',
      }),
    ).toEqual(NO_CHANNELS);
    // The price-change fault applies to giveaways as to every product.
    await request(h.app).put('/admin/fragment/faults').send({ priceChangedNextInits: 1 }).expect(200);
    expect(await giveawayInit(c, { quantity: 10, months: 3 })).toEqual({
      error: 'Price was changed. Please try again.',
    });
    expect((await giveawayInit(c, { quantity: 10, months: 3 })).req_id).toBeDefined();
  });

  it('delivers a giveaway paid in GRAM on the chain: comment, receiver, status, history in /premium/history, repeat', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const init = await giveawayInit(c, { quantity: 10, months: 3 });
    expect(init).toMatchObject({ amount: '70.5295', item_title: '10 Telegram Premium subscriptions for 3 months' });
    expect(init.content).toContain('@starsgate_channel');
    const link = await c.api('getGiveawayPremiumLink', {
      id: init.req_id,
      show_sender: 0,
      transaction: 1,
      account: payer.account(),
      device: DEVICE,
    });
    expect(link).toMatchObject({ ok: true, confirm_method: 'confirmReq', confirm_params: { id: init.req_id } });
    const msg = link.transaction.messages[0];
    expect(msg.address).toBe(h.sim.receivingAddresses.premium.toString({ bounceable: false }));
    expect(msg.amount).toBe('70529500000');
    const comment = readComment(decodePayload(msg.payload));
    expect(comment).toMatch(/^Prepaid Subscription for 10 × 3 months\n\nRef#[A-Za-z0-9]{9}$/);

    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    expect(await c.api('confirmReq', { id: init.req_id, boc, account: payer.account(), device: '{}' })).toEqual({
      ok: true,
    });
    const done = await waitFor(
      async () => {
        const s = await state(c, 10);
        return s.mode === 'done' ? s : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );
    expect(done.html).toContain('10 Telegram Premium subscriptions for 3 months were sent to');
    expect(done.html).toContain('Start Another Giveaway');
    const delivered = h.sim.stats().deliveredOrders.filter((d) => d.product === 'premium_giveaway');
    expect(delivered).toEqual([
      expect.objectContaining({ username: 'starsgate_channel', quantity: 10, months: 3, paymentMethod: 'ton' }),
    ]);
    expect(comment).toContain(`Ref#${delivered[0]!.ref}`);

    const history = await c.page('/premium/history');
    expect(history.text).toContain('@starsgate_channel');
    expect(history.text).toContain('10 × 3 months');
    const premiumState = await c.api('updatePremiumState', { mode: 'new', lv: 'false', dh: '1' });
    expect(premiumState.history_html).toContain('10 × 3 months');

    expect(await c.api('repeatPremiumGiveaway', {})).toEqual({ ok: true });
    expect((await state(c, 10)).mode).toBe('new');
  });

  it("delivers a giveaway paid in USDT through the payer's jetton wallet", async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const init = await giveawayInit(c, { quantity: 2, months: 12, payment_method: 'usdt_ton' });
    expect(init.amount).toBe('57.98');
    const link = await c.api('getGiveawayPremiumLink', {
      id: init.req_id,
      transaction: 1,
      account: payer.account(),
      device: DEVICE,
    });
    const before = await h.chain.getJettonBalance(h.sim.receivingAddresses.premium);
    const boc = await payer.sign(link.transaction);
    await h.chain.submitExternal(boc);
    expect(await c.api('confirmReq', { id: init.req_id, boc, account: payer.account(), device: '{}' })).toEqual({
      ok: true,
    });
    await waitFor(async () => ((await state(c, 2)).mode === 'done' ? true : undefined), {
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    expect((await h.chain.getJettonBalance(h.sim.receivingAddresses.premium)) - before).toBe(57_980_000n);
    expect(h.sim.stats().deliveredOrders.filter((d) => d.product === 'premium_giveaway')).toContainEqual(
      expect.objectContaining({ quantity: 2, months: 12, paymentMethod: 'usdt_ton' }),
    );
  });

  it('takes the product faults: a method fault, need_ton, need_verify and strictFlow', async () => {
    const c = await loggedInClient(h, '/premium/giveaway');
    const put = (body: object) => request(h.app).put('/admin/fragment/faults').send(body).expect(200);
    await put({ methods: { searchPremiumGiveawayRecipient: { errorRate: 1, errorText: 'Flood', count: 1 } } });
    expect(await search(c, '@starsgate_channel')).toEqual({ error: 'Flood' });
    expect((await search(c, '@starsgate_channel')).ok).toBe(true);
    await put({ needTon: true });
    expect(await giveawayInit(c, { quantity: 1, months: 3 })).toEqual({ need_ton: true });
    await put({ needTon: false, needVerify: true });
    const init = await giveawayInit(c, { quantity: 1, months: 3 });
    const link = await c.api('getGiveawayPremiumLink', {
      id: init.req_id,
      transaction: 1,
      account: payer.account(),
      device: DEVICE,
    });
    expect(link.need_verify).toBe(true);
    expect(link.popup).toContain('To buy Telegram Premium');
    await put({ needVerify: false, strictFlow: true });
    // strictFlow: an init whose flow did not start anew (a status poll, not `mode: "new"`) is refused.
    const found = await search(c, '@starsgate_channel');
    await c.api('updatePremiumGiveawayState', { mode: 'processing', lv: 'false', dh: '1', quantity: 1 });
    const fields = { recipient: found.found.recipient, quantity: 1, months: 3, payment_method: 'ton' };
    expect(await c.api('initGiveawayPremiumRequest', fields)).toEqual({
      error: 'Price was changed. Please try again.',
    });
    await state(c, 1);
    expect((await c.api('initGiveawayPremiumRequest', fields)).req_id).toBeDefined();
    await put({ strictFlow: false });
  });
});
