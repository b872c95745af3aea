import { createHash } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import { sign } from '@ton/crypto';
import request from 'supertest';
import { decodePayload, readComment } from '../../src/fragment/comment-payload';
import { demoFragmentCookies } from '../../src/fragment';
import { parseJettonTransfer } from '../../src/fragment/jetton-payload';
import { Payer } from './payer';
import { createHarness, freshDemoCookies, type Harness, type Json, loggedInClient, SEED, TestClient } from './harness';

const DEVICE = JSON.stringify({
  platform: 'linux',
  appName: 'starsgate',
  maxProtocolVersion: 2,
  features: ['SendTransaction'],
});
const PAYER = '0:' + 'ab'.repeat(32);
const ACCOUNT = JSON.stringify({ address: PAYER, chain: '-239' });
const sync = { mode: 'new', lv: 'false', dh: '1' };

function ajInit(html: string): Json {
  const m = /ajInit\((\{.*?\})\);/s.exec(html);
  if (!m) throw new Error('no ajInit');
  return JSON.parse(m[1]!) as Json;
}

describe('Fragment simulator protocol', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());
  afterEach(async () => {
    await request(h.app).post('/admin/fragment/faults/reset');
    await request(h.app).put('/admin/fragment/config').send({ tonRate: '1.70', requireConfirm: true });
  });

  describe('pages', () => {
    it('serves /stars/buy with ajInit, Wallet.init v2 and session cookies', async () => {
      const c = new TestClient(h.app);
      const res = await c.page('/stars/buy');
      expect(res.status).toBe(200);
      const cookies = (res.headers['set-cookie'] as unknown as string[]).join('\n');
      expect(cookies).toMatch(/stel_ssid=[0-9a-f]+_[0-9]+;/);
      expect(cookies).toMatch(/stel_dt=/);
      expect(res.text).toMatch(/"apiUrl":"\\\/api\?hash=[0-9a-f]{18}"/);
      const aj = ajInit(res.text);
      expect(typeof aj.version).toBe('number');
      expect(aj.apiUrl).toBe(`/api?hash=${c.hash}`);
      expect(aj.state.tonRate).toBe(1.7);
      expect(res.text).toMatch(/Wallet\.init\(\{[^)]*"version":2\}\)/);
      expect(res.text).toMatch(/input type="radio" class="tm-form-radio" name="stars" value="50"/);
      // Second visit: same session, no new stel_ssid.
      const again = await c.page('/stars/buy');
      expect(String(again.headers['set-cookie'] ?? '')).not.toMatch(/stel_ssid/);
      expect(ajInit(again.text).apiUrl).toBe(`/api?hash=${c.hash}`);
    });

    it('serves / and /premium/gift with three month options priced in TON (icon-ton + mini-frac) and USD', async () => {
      const c = new TestClient(h.app);
      expect((await c.page('/')).text).toContain('ajInit(');
      const res = await c.page('/premium/gift');
      const labels = res.text.match(/<label[^>]*>.*?<\/label>/gs) ?? [];
      const options = labels.filter((l) => /name="months"/.test(l));
      expect(options).toHaveLength(3);
      const parsed = options.map((l) => ({
        months: /value="(\d+)"/.exec(l)![1],
        ton: /icon-ton">(\d+)<span class="mini-frac">(\.\d+)<\/span>/.exec(l)!.slice(1).join(''),
        usd: /\$(\d+\.\d+)/.exec(l)![1],
      }));
      // ceil(USD / 1.70, 4 dp)
      expect(parsed).toEqual([
        { months: '3', ton: '7.053', usd: '11.99' },
        { months: '6', ton: '9.4059', usd: '15.99' },
        { months: '12', ton: '17.053', usd: '28.99' },
      ]);
      expect(options[2]).toMatch(/tm-radio-label-badge">-40%/);
    });

    it('answers AJAX page requests with {v,t,h,j,s}', async () => {
      const c = new TestClient(h.app);
      const res = await c.page('/premium/gift', { 'X-Requested-With': 'XMLHttpRequest' });
      const body = JSON.parse(res.text) as Json;
      expect(Object.keys(body).sort()).toEqual(['h', 'j', 's', 't', 'v']);
      expect(body.s.tonRate).toBe(1.7);
      expect(body.h).toMatch(/name="months"/);
      const missing = await c.agent.get('/fragment/nowhere').set('X-Requested-With', 'XMLHttpRequest');
      expect(missing.status).toBe(302);
    });
  });

  describe('hash and cookies', () => {
    it('rejects a wrong hash, another session\'s hash, and no session with "Access denied"', async () => {
      const a = new TestClient(h.app);
      const b = new TestClient(h.app);
      await a.page();
      await b.page();
      expect(a.hash).not.toBe(b.hash);
      expect(await a.api('searchStarsRecipient', { query: 'alice' }, 'deadbeefdeadbeefde')).toEqual({
        error: 'Access denied',
      });
      expect(await a.api('searchStarsRecipient', { query: 'alice' }, b.hash)).toEqual({ error: 'Access denied' });
      expect(await new TestClient(h.app).api('searchStarsRecipient', { query: 'alice' }, a.hash)).toEqual({
        error: 'Access denied',
      });
      expect((await a.api('searchStarsRecipient', { query: 'alice' })).ok).toBe(true);
      await request(h.app).put('/admin/fragment/faults').send({ badHashText: 'Bad request' });
      expect(await a.api('searchStarsRecipient', { query: 'alice' }, b.hash)).toEqual({ error: 'Bad request' });
    });

    it('rotates the session hash after hashRotationMs', async () => {
      let now = 1_000_000;
      const hr = await createHarness({ hashRotationMs: 60_000 }, { clock: () => now });
      try {
        const c = new TestClient(hr.app);
        await c.page();
        const old = c.hash;
        now += 61_000;
        expect(await c.api('searchStarsRecipient', { query: 'bob' })).toEqual({ error: 'Access denied' });
        await c.page();
        expect(c.hash).not.toBe(old);
        expect((await c.api('searchStarsRecipient', { query: 'bob' })).ok).toBe(true);
      } finally {
        await hr.close();
      }
    });

    // Fragment's logged-out pages still carry the API hash: only the page's auth state tells.
    const loggedOutState = (text: string) => {
      expect(text).toMatch(/api\?hash=[0-9a-f]{18}/);
      expect(text).toMatch(/ajInit\(\{[^<]*"unAuth":true/);
      expect(text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":false/);
    };

    it('session expiry switch: logged-out page (hash kept, unAuth) and "Access denied" everywhere', async () => {
      const c = await loggedInClient(h);
      await request(h.app).put('/admin/fragment/faults').send({ sessionExpired: true });
      const page = await c.page('/stars/buy');
      loggedOutState(page.text);
      expect(page.text).toMatch(/Log in/);
      expect(await c.api('searchStarsRecipient', { query: 'alice' })).toEqual({ error: 'Access denied' });
      expect(await c.api('updateStarsBuyState', sync)).toEqual({ error: 'Access denied' });
    });

    it('a dead stel_token cookie gives a logged-out page and "Access denied"', async () => {
      const c = new TestClient(
        h.app,
        demoFragmentCookies(SEED).replace(/stel_token=[0-9a-f]+/, 'stel_token=' + '0'.repeat(64)),
      );
      const page = await c.page();
      loggedOutState(page.text);
    });

    it("pages show the Telegram login as unAuth and the TON wallet's as Wallet.init logged_in, as Fragment does", async () => {
      const paying = await (await loggedInClient(h)).page('/stars/buy');
      expect(paying.text).toMatch(/"unAuth":false/);
      expect(paying.text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":true/);

      const [ssid, dt, token] = freshDemoCookies().split('; ');
      const telegramOnly = await new TestClient(h.app, `${ssid}; ${dt}; ${token}`).page('/stars/buy');
      expect(telegramOnly.text).toMatch(/"unAuth":false/);
      expect(telegramOnly.text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":false/);

      const anonymous = await new TestClient(h.app).page('/stars/buy');
      expect(anonymous.text).toMatch(/"unAuth":true/);
      expect(anonymous.text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":false/);
    });

    it('the legacy login markup (the old simulator) stays as a fault', async () => {
      await request(h.app).put('/admin/fragment/faults').send({ loginMarkup: 'legacy' });
      const page = await (await loggedInClient(h)).page('/stars/buy');
      expect(page.text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":true/);
      expect(page.text).not.toMatch(/unAuth/);
      const [ssid, dt, token] = freshDemoCookies().split('; ');
      const telegramOnly = await new TestClient(h.app, `${ssid}; ${dt}; ${token}`).page('/stars/buy');
      expect(telegramOnly.text).toMatch(/Wallet\.init\(\{[^)]*"logged_in":true/);
    });

    it('serves /my/profile with and without the verification badges, and redirects a logged-out session', async () => {
      const verified = await (await loggedInClient(h)).page('/my/profile');
      expect(verified.status).toBe(200);
      expect(verified.text).toMatch(/Identity Verified/);
      expect(verified.text).toMatch(/Linked Wallet.*UQ[\w-]{46}.*Wallet Verified/);
      await request(h.app).put('/admin/fragment/faults').send({ profileBadges: 'unverified' });
      const unverified = await (await loggedInClient(h)).page('/my/profile');
      expect(unverified.text).not.toMatch(/Identity Verified|Wallet Verified/);
      expect(unverified.text).toMatch(/kyc\/account/);
      expect((await new TestClient(h.app).page('/my/profile')).status).toBe(302);
    });

    it('buying needs stel_token ("Access denied") and stel_ton_token (need_ton)', async () => {
      const anon = new TestClient(h.app);
      await anon.page();
      const found = await anon.api('searchStarsRecipient', { query: 'alice' });
      expect(found.ok).toBe(true); // search needs only the base session
      await anon.api('updateStarsBuyState', sync);
      expect(
        await anon.api('initBuyStarsRequest', {
          recipient: found.found.recipient,
          quantity: 50,
          payment_method: 'ton',
        }),
      ).toEqual({ error: 'Access denied' });

      const [ssid, , token] = demoFragmentCookies(SEED).split('; ');
      const noWallet = new TestClient(h.app, `${ssid}; ${token}`);
      await noWallet.page();
      const r = await noWallet.api('searchStarsRecipient', { query: 'alice' });
      await noWallet.api('updateStarsBuyState', sync);
      expect(
        await noWallet.api('initBuyStarsRequest', {
          recipient: r.found.recipient,
          quantity: 50,
          payment_method: 'ton',
        }),
      ).toEqual({ need_ton: true });
    });

    it('test logIn sets stel_token', async () => {
      const c = new TestClient(h.app);
      await c.page();
      const auth = Buffer.from(encodeURIComponent(JSON.stringify({ id: 42, first_name: 'Op', auth_date: 1 }))).toString(
        'base64',
      );
      const res = await c.raw('logIn', { auth });
      expect(JSON.parse(res.text)).toEqual({ ok: true });
      expect(String(res.headers['set-cookie'])).toMatch(/stel_token=[0-9a-f]{64}/);
      const r = await c.api('searchStarsRecipient', { query: 'alice' });
      await c.api('updateStarsBuyState', sync);
      // Logged in now, but no wallet yet.
      expect(
        await c.api('initBuyStarsRequest', { recipient: r.found.recipient, quantity: 50, payment_method: 'ton' }),
      ).toEqual({ need_ton: true });
    });
  });

  describe('recipient search', () => {
    const stars = async (c: TestClient, query: string) => c.api('searchStarsRecipient', { query, quantity: '' });
    const premium = async (c: TestClient, query: string) => c.api('searchPremiumGiftRecipient', { query, months: 3 });

    it('finds ordinary users by @name, bare name, t.me link, any case; 64-char tokens stable per session', async () => {
      const c = await loggedInClient(h);
      const a = await stars(c, '@alice');
      expect(a).toMatchObject({ ok: true, found: { myself: false, name: 'Alice Anders' } });
      expect(a.found.recipient).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(a.found.photo).toMatch(/^<img /);
      expect((await stars(c, 'ALICE')).found.recipient).toBe(a.found.recipient);
      expect((await stars(c, 'https://t.me/alice')).found.recipient).toBe(a.found.recipient);
      expect((await premium(c, 'alice')).found.recipient).toBe(a.found.recipient);
      const other = new TestClient(h.app);
      await other.page();
      expect((await stars(other, 'alice')).found.recipient).not.toBe(a.found.recipient);
      expect((await stars(c, 'erin')).found.name).toBe('Erin O&#39;Neil');
      for (const u of ['bob', 'carol', 'dave']) expect((await stars(c, u)).ok).toBe(true);
    });

    it('returns the exact Fragment error texts', async () => {
      const c = await loggedInClient(h);
      expect(await stars(c, 'nobody_here')).toEqual({ error: 'No Telegram users found.' });
      expect(await stars(c, '')).toEqual({ error: 'No Telegram users found.' });
      expect(await stars(c, '@helper_bot')).toEqual({ error: 'Please enter a username assigned to a user.' });
      expect(await premium(c, '@news_channel')).toEqual({ error: 'Please enter a username assigned to a user.' });
      expect(await stars(c, '@frozen_fay')).toEqual({
        error: 'You can&#39;t gift Telegram Stars to this account at this moment.',
      });
      expect((await premium(c, '@frozen_fay')).ok).toBe(true);
      expect(await premium(c, '@premium_pat')).toEqual({
        error: 'This account is already subscribed to Telegram Premium.',
      });
      expect((await stars(c, '@premium_pat')).ok).toBe(true);
    });

    it('reports Stars-blocked and already-Premium at init too', async () => {
      const c = await loggedInClient(h);
      const fay = await premium(c, 'frozen_fay');
      await c.api('updateStarsBuyState', sync);
      expect(
        await c.api('initBuyStarsRequest', { recipient: fay.found.recipient, quantity: 50, payment_method: 'ton' }),
      ).toEqual({
        error: 'You can&#39;t gift Telegram Stars to this account at this moment.',
      });
      await request(h.app).put('/admin/fragment/faults').send({ premiumActiveAt: 'init' });
      const pat = await premium(c, 'premium_pat');
      expect(pat.ok).toBe(true);
      await c.api('updatePremiumState', sync);
      expect(
        await c.api('initGiftPremiumRequest', { recipient: pat.found.recipient, months: 3, payment_method: 'ton' }),
      ).toEqual({
        error: 'This account is already subscribed to Telegram Premium.',
      });
    });

    it('lists the directory with a description per entry', () => {
      const names = h.sim.directory.list().map((e) => e.username);
      expect(names).toEqual([
        'alice',
        'bob',
        'carol',
        'dave',
        'erin',
        'helper_bot',
        'news_channel',
        'frozen_fay',
        'premium_pat',
        'starsgate_channel',
        'starsgate_giveaways',
      ]);
      for (const e of h.sim.directory.list()) expect(e.description.length).toBeGreaterThan(10);
    });
  });

  describe('prices and state', () => {
    it('updateStarsPrices returns cur_price HTML with TON (icon-ton + mini-frac) and USD', async () => {
      const c = await loggedInClient(h);
      const r = await c.api('updateStarsPrices', { stars: '', quantity: 5050 });
      expect(r.ok).toBe(true);
      // 75.75 / 1.70 = 44.558823… → 44.5589
      expect(r.cur_price).toBe(
        '<div class="tm-value icon-before icon-ton">44<span class="mini-frac">.5589</span></div><div class="tm-radio-desc">&#036;75.75</div>',
      );
      expect(r.options_html).toMatch(/name="stars" value="50"/);
      expect(r.dh).toMatch(/^\d{10}$/);
      expect((await c.api('updateStarsPrices', { stars: '', quantity: 49 })).error).toBeDefined();
      expect((await c.api('updateStarsPrices', { stars: '', quantity: 1_000_001 })).error).toBeDefined();
      expect((await c.api('updateStarsPrices', { stars: '', quantity: 1_000_000 })).ok).toBe(true);
    });

    it('writes large prices as Fragment does, thousands grouped with commas (cur_price and the options)', async () => {
      const c = await loggedInClient(h);
      const r = await c.api('updateStarsPrices', { stars: '', quantity: 1_000_000 });
      // $15,000 / 1.70 = 8823.5294… → 8823.5295
      expect(r.cur_price).toBe(
        '<div class="tm-value icon-before icon-ton">8,823<span class="mini-frac">.5295</span></div><div class="tm-radio-desc">&#036;15,000.00</div>',
      );
      expect(r.options_html).toMatch(
        /value="100000">.*?100,000 Stars.*?icon-ton">882<span class="mini-frac">.353<\/span>.*?\$1,500.00/s,
      );
    });

    it('update…State answers mode/html/options_html/lv/dh/need_update (+history_html for Premium)', async () => {
      const c = await loggedInClient(h);
      const s = await c.api('updateStarsBuyState', sync);
      expect(s).toMatchObject({ mode: 'new', need_update: false });
      for (const k of ['html', 'options_html', 'lv', 'dh']) expect(s).toHaveProperty(k);
      const p = await c.api('updatePremiumState', sync);
      expect(p).toHaveProperty('history_html');
      expect(p.options_html).toMatch(/name="months"/);
    });
  });

  describe('init', () => {
    async function prepared(product: 'stars' | 'premium' = 'stars') {
      const c = await loggedInClient(h, product === 'stars' ? '/stars/buy' : '/premium/gift');
      const found = await c.api(product === 'stars' ? 'searchStarsRecipient' : 'searchPremiumGiftRecipient', {
        query: 'bob',
      });
      return { c, recipient: found.found.recipient as string };
    }

    it('requires payment_method ("Access denied")', async () => {
      const { c, recipient } = await prepared();
      await c.api('updateStarsBuyState', sync);
      expect(await c.api('initBuyStarsRequest', { recipient, quantity: 50 })).toEqual({ error: 'Access denied' });
      expect(await c.api('initBuyStarsRequest', { recipient, quantity: 50, payment_method: 'btc' })).toEqual({
        error: 'Access denied',
      });
    });

    it('says "Price was changed" without a prior state sync, and after the rate moved', async () => {
      const { c, recipient } = await prepared();
      const args = { recipient, quantity: 50, payment_method: 'ton' };
      expect(await c.api('initBuyStarsRequest', args)).toEqual({ error: 'Price was changed. Please try again.' });
      await c.api('updateStarsPrices', { stars: '', quantity: 50 });
      expect((await c.api('initBuyStarsRequest', args)).req_id).toBeDefined();
      await request(h.app).put('/admin/fragment/config').send({ tonRate: '1.71' });
      expect(await c.api('initBuyStarsRequest', args)).toEqual({ error: 'Price was changed. Please try again.' });
      await c.api('updateStarsBuyState', sync);
      const ok = await c.api('initBuyStarsRequest', args);
      expect(ok.amount).toBe('0.4386'); // ceil(0.75 / 1.71, 4)
    });

    it('drifts the rate when enabled, which invalidates the synced price state', async () => {
      let now = 5_000_000;
      const hd = await createHarness(
        { drift: { enabled: true, intervalMs: 60_000, maxStepPpm: 3_000 } },
        { clock: () => now },
      );
      try {
        const c = await loggedInClient(hd);
        const r = await c.api('searchStarsRecipient', { query: 'bob' });
        const before = ajInit((await c.page()).text).state.tonRate as number;
        await c.api('updateStarsBuyState', sync);
        now += 60_000;
        const after = ajInit((await c.page()).text).state.tonRate as number;
        expect(after).not.toBe(before);
        expect(Math.abs(after / before - 1)).toBeLessThanOrEqual(0.003 + 1e-9);
        expect(
          await c.api('initBuyStarsRequest', { recipient: r.found.recipient, quantity: 50, payment_method: 'ton' }),
        ).toEqual({ error: 'Price was changed. Please try again.' });
      } finally {
        await hd.close();
      }
    });

    it('rejects the first N inits with "Price was changed" (fault), then succeeds after re-sync', async () => {
      const { c, recipient } = await prepared();
      await request(h.app).put('/admin/fragment/faults').send({ priceChangedNextInits: 2 });
      const args = { recipient, quantity: 50, payment_method: 'ton' };
      for (let i = 0; i < 2; i++) {
        await c.api('updateStarsBuyState', sync);
        expect(await c.api('initBuyStarsRequest', args)).toEqual({ error: 'Price was changed. Please try again.' });
      }
      await c.api('updateStarsBuyState', sync);
      expect((await c.api('initBuyStarsRequest', args)).req_id).toBeDefined();
    });

    it('returns req_id (base64url 20–32), amount in TON (≤4 dp) or USDT, item_title, content, button', async () => {
      const { c, recipient } = await prepared('premium');
      await c.api('updatePremiumState', sync);
      const ton = await c.api('initGiftPremiumRequest', { recipient, months: 12, payment_method: 'ton' });
      expect(ton.req_id).toMatch(/^[A-Za-z0-9_-]{20,32}$/);
      expect(ton).toMatchObject({
        amount: '17.053',
        myself: false,
        to_bot: false,
        item_title: 'Telegram Premium for 1 year',
      });
      expect(typeof ton.content).toBe('string');
      expect(typeof ton.button).toBe('string');
      const usdt = await c.api('initGiftPremiumRequest', { recipient, months: 6, payment_method: 'usdt_ton' });
      expect(usdt.amount).toBe('15.99');
      const s = await prepared('stars');
      await s.c.api('updateStarsBuyState', sync);
      expect(
        (await s.c.api('initBuyStarsRequest', { recipient: s.recipient, quantity: 50, payment_method: 'usdt_ton' }))
          .amount,
      ).toBe('0.75');
      // A large order's amount is written with thousands separators, in the text fields too.
      const large = await s.c.api('initBuyStarsRequest', {
        recipient: s.recipient,
        quantity: 200_000,
        payment_method: 'usdt_ton',
      });
      expect(large.amount).toBe('3,000');
      expect(large.button).toMatch(/Pay 3,000 USDT/);
      const largeTon = await s.c.api('initBuyStarsRequest', {
        recipient: s.recipient,
        quantity: 200_000,
        payment_method: 'ton',
      });
      expect(largeTon.amount).toBe('1,764.7059');
      expect(
        (await s.c.api('initBuyStarsRequest', { recipient: s.recipient, quantity: 49, payment_method: 'ton' })).error,
      ).toBeDefined();
      expect(
        (await s.c.api('initGiftPremiumRequest', { recipient: s.recipient, months: 5, payment_method: 'ton' })).error,
      ).toBeDefined();
    });
  });

  describe('history', () => {
    it('names the table in the page state and loads more with getPremiumHistory {type, offset_id} → {body, foot}', async () => {
      const c = await loggedInClient(h, '/stars/history?sort=desc');
      const stars = await c.page('/stars/history?sort=desc');
      expect(ajInit(stars.text).state.type).toBe('stars');
      expect(stars.text).toMatch(/<tfoot class="js-history-foot"><\/tfoot><\/table>/);
      const premium = await c.page('/premium/history?sort=desc');
      expect(ajInit(premium.text).state).not.toHaveProperty('type');
      // Past the last row: no rows, and a foot without the "load more" marker.
      expect(await c.api('getPremiumHistory', { type: 'stars', offset_id: 1 })).toEqual({
        ok: true,
        body: '',
        foot: '',
      });
      expect(await c.api('getPremiumHistory', { type: '', offset_id: 1 })).toEqual({ ok: true, body: '', foot: '' });
      expect((await c.api('getPremiumHistory', { type: 'gifts', offset_id: 1 })).error).toBe('Bad request');
      expect((await c.api('getStarsHistory', { offset_id: 1 })).error).toBe('Unknown method');
    });

    it('refuses history switches it does not know', async () => {
      for (const faults of [{ historyLoadMore: 'html' }, { historyDates: 'local' }])
        expect((await request(h.app).put('/admin/fragment/config').send({ faults })).status).toBe(400);
    });

    it('the legacy fault answers the old way: getStarsHistory, {html, next_offset}', async () => {
      await request(h.app)
        .put('/admin/fragment/config')
        .send({ faults: { historyLoadMore: 'legacy' } })
        .expect(200);
      const c = await loggedInClient(h, '/stars/history?sort=desc');
      expect(await c.api('getStarsHistory', { offset_id: 1 })).toEqual({ ok: true, html: '' });
      expect(await c.api('getPremiumHistory', { type: 'stars', offset_id: 1 })).toEqual({ ok: true, html: '' });
    });
  });

  describe('get…Link', () => {
    async function initOrder(method: 'ton' | 'usdt_ton', product: 'stars' | 'premium' = 'stars') {
      const stars = product === 'stars';
      const c = await loggedInClient(h, stars ? '/stars/buy' : '/premium/gift');
      const f = await c.api(stars ? 'searchStarsRecipient' : 'searchPremiumGiftRecipient', { query: 'carol' });
      await c.api(stars ? 'updateStarsBuyState' : 'updatePremiumState', sync);
      const init = await c.api(stars ? 'initBuyStarsRequest' : 'initGiftPremiumRequest', {
        recipient: f.found.recipient,
        [stars ? 'quantity' : 'months']: stars ? 50 : 6,
        payment_method: method,
      });
      return { c, init };
    }
    const linkArgs = (id: string) => ({ id, show_sender: 0, transaction: 1, account: ACCOUNT, device: DEVICE });

    it('GRAM: one message to the product wallet (UQ…), nanoTON amount, exact comment payload, validUntil = now+300', async () => {
      const { c, init } = await initOrder('ton', 'premium');
      const link = await c.api('getGiftPremiumLink', linkArgs(init.req_id));
      expect(link.confirm_method).toBe('confirmReq');
      expect(link.confirm_params).toEqual({ id: init.req_id });
      // The default (linked) mode names the wallet linked to the account, not the account sent.
      expect(link.transaction.from).toBe(h.sim.linkedWallet.address.toRawString());
      expect(link.transaction.validUntil).toBeGreaterThanOrEqual(h.chain.now() + 299);
      expect(link.transaction.validUntil).toBeLessThanOrEqual(h.chain.now() + 301);
      expect(link.transaction.messages).toHaveLength(1);
      const m = link.transaction.messages[0];
      expect(m.address).toMatch(/^UQ/);
      expect(Address.parse(m.address).equals(h.sim.receivingAddresses.premium)).toBe(true);
      expect(m.amount).toBe('9405900000');
      // Standard base64 with padding, as a live answer carries it (packages/fragment/test/fixtures/public).
      expect(m.payload).toMatch(/^te6ccgEB[A-Za-z0-9+/]+=*$/);
      const text = readComment(decodePayload(m.payload))!;
      expect(text).toMatch(/^Telegram Premium for 6 months \n\nRef#[A-Za-z0-9]{9}$/);
    });

    it('echo mode: transaction.from is the account sent; linked mode: the wallet linked to the account', async () => {
      await request(h.app).put('/admin/fragment/faults').send({ transactionFrom: 'echo' });
      const echoed = await initOrder('ton');
      expect((await echoed.c.api('getBuyStarsLink', linkArgs(echoed.init.req_id))).transaction.from).toBe(PAYER);
      // Per session: the switch of one cookie session does not move the others.
      await request(h.app)
        .put('/admin/fragment/faults')
        .send({ transactionFrom: 'linked', transactionFromBySession: { [echoed.c.ssid()]: 'echo' } });
      const again = await echoed.c.api('initBuyStarsRequest', {
        recipient: (await echoed.c.api('searchStarsRecipient', { query: 'carol' })).found.recipient,
        quantity: 50,
        payment_method: 'ton',
      });
      expect((await echoed.c.api('getBuyStarsLink', linkArgs(again.req_id))).transaction.from).toBe(PAYER);
      const linked = await initOrder('ton');
      expect((await linked.c.api('getBuyStarsLink', linkArgs(linked.init.req_id))).transaction.from).toBe(
        h.sim.linkedWallet.address.toRawString(),
      );
      expect((await request(h.app).put('/admin/fragment/faults').send({ transactionFrom: 'nobody' })).status).toBe(400);
    });

    it.each([
      ['echo', () => Address.parse(PAYER)],
      ['linked', () => h.sim.linkedWallet.address],
    ] as const)(
      "USDT (%s): 0.05 TON to transaction.from's jetton wallet carrying a TEP-74 transfer to the product wallet",
      async (mode, fromWallet) => {
        await request(h.app).put('/admin/fragment/faults').send({ transactionFrom: mode });
        const { c, init } = await initOrder('usdt_ton');
        const link = await c.api('getBuyStarsLink', linkArgs(init.req_id));
        const m = link.transaction.messages[0];
        const payer = fromWallet();
        expect(link.transaction.from).toBe(payer.toRawString());
        expect(Address.parse(m.address).equals(await h.chain.getJettonWalletAddress(payer))).toBe(true);
        expect(m.address).toMatch(/^EQ/);
        expect(m.amount).toBe('50000000');
        const t = parseJettonTransfer(Cell.fromBoc(Buffer.from(m.payload, 'base64'))[0]!)!;
        expect(t.amount).toBe(750000n);
        expect(t.destination.equals(h.sim.receivingAddresses.stars)).toBe(true);
        expect(t.responseDestination.equals(payer)).toBe(true);
        expect(t.forwardTonAmount).toBe(1n);
        expect(readComment(t.forwardPayload)).toMatch(/^50 Telegram Stars \n\nRef#[A-Za-z0-9]{9}$/);
      },
    );

    it('need_verify switch → need_verify + popup; unknownReceiver → an address off the allow-list', async () => {
      const { c, init } = await initOrder('ton');
      await request(h.app).put('/admin/fragment/faults').send({ needVerify: true });
      const v = await c.api('getBuyStarsLink', linkArgs(init.req_id));
      expect(v.need_verify).toBe(true);
      expect(v.popup).toMatch(/verify/i);
      await request(h.app).put('/admin/fragment/faults').send({ needVerify: false, unknownReceiver: true });
      const u = await c.api('getBuyStarsLink', linkArgs(init.req_id));
      const to = Address.parse(u.transaction.messages[0].address);
      expect(to.equals(h.sim.receivingAddresses.stars)).toBe(false);
      expect(to.equals(h.sim.receivingAddresses.premium)).toBe(false);
    });

    it("rejects a foreign session's order and unknown ids", async () => {
      const { init } = await initOrder('ton');
      const other = new TestClient(
        h.app,
        demoFragmentCookies(SEED).replace(/stel_ssid=[^;]+/, 'stel_ssid=0123456789abcdef01_1234567890123456789'),
      );
      await other.page();
      expect(await other.api('getBuyStarsLink', linkArgs(init.req_id))).toEqual({ error: 'Access denied' });
      expect((await other.api('getBuyStarsLink', linkArgs('nope'))).error).toBeDefined();
    });

    it('EVM payment methods get {ok, evm}', async () => {
      const c = await loggedInClient(h);
      const f = await c.api('searchStarsRecipient', { query: 'carol' });
      await c.api('updateStarsBuyState', sync);
      const init = await c.api('initBuyStarsRequest', {
        recipient: f.found.recipient,
        quantity: 50,
        payment_method: 'usdt_eth',
      });
      expect(await c.api('getBuyStarsLink', linkArgs(init.req_id))).toEqual({ ok: true, evm: true });
    });
  });

  it('expires an unpaid order after validUntil: link and confirm return an error', async () => {
    const he = await createHarness({ validitySeconds: 1 });
    try {
      const c = await loggedInClient(he);
      const f = await c.api('searchStarsRecipient', { query: 'alice' });
      await c.api('updateStarsBuyState', sync);
      const init = await c.api('initBuyStarsRequest', {
        recipient: f.found.recipient,
        quantity: 50,
        payment_method: 'ton',
      });
      const link = await c.api('getBuyStarsLink', {
        id: init.req_id,
        show_sender: 0,
        transaction: 1,
        account: ACCOUNT,
        device: DEVICE,
      });
      expect(link.ok).toBe(true);
      const deadline = link.transaction.validUntil as number;
      while (he.chain.now() <= deadline) await new Promise((r) => setTimeout(r, 100));
      expect(
        await c.api('getBuyStarsLink', {
          id: init.req_id,
          show_sender: 0,
          transaction: 1,
          account: ACCOUNT,
          device: DEVICE,
        }),
      ).toEqual({ error: 'This request has expired. Please try again.' });
      expect(await c.api('confirmReq', { id: init.req_id, boc: 'te6cc', account: ACCOUNT, device: DEVICE })).toEqual({
        error: 'This request has expired. Please try again.',
      });
    } finally {
      await he.close();
    }
  });

  it('repeatStars resets the page state to new', async () => {
    const c = await loggedInClient(h);
    expect(await c.api('repeatStars')).toEqual({ ok: true });
    expect((await c.api('updateStarsBuyState', sync)).mode).toBe('new');
    expect(await c.api('repeatPremium')).toEqual({ ok: true });
  });

  it('unknown methods get an error, and every API call is counted per method', async () => {
    const c = await loggedInClient(h);
    const before = h.sim.stats().calls['searchStarsRecipient'] ?? 0;
    await c.api('searchStarsRecipient', { query: 'alice' });
    await c.api('searchStarsRecipient', { query: 'bob' });
    await c.api('searchStarsRecipient', { query: 'x' }, 'badbadbadbadbadbad');
    expect(h.sim.stats().calls['searchStarsRecipient']).toBe(before + 3);
    expect((await c.api('fooBar')).error).toBe('Unknown method');
    expect(h.sim.stats().calls['GET /stars/buy']).toBeGreaterThan(0);
  });
});

describe('checkTonProofAuth', () => {
  it('verifies a TonConnect ton_proof for the page challenge and sets stel_ton_token bound to the wallet', async () => {
    const h = await createHarness();
    try {
      const payer = new Payer(h.chain, 'proof');
      const [ssid, , token] = freshDemoCookies().split('; ');
      const c = new TestClient(h.app, `${ssid}; ${token}`);
      const page = await c.page();
      const challenge = /"ton_proof":"([0-9a-f]+)"/.exec(page.text)![1]!;
      expect(challenge).toMatch(/^[0-9a-f]{18}$/);
      const domain = 'fragment.com';
      const timestamp = Math.floor(Date.now() / 1000);
      // ton-proof-item-v2 message, independently built from the TonConnect spec.
      const wc = Buffer.alloc(4);
      const dl = Buffer.alloc(4);
      dl.writeUInt32LE(domain.length);
      const ts = Buffer.alloc(8);
      ts.writeBigUInt64LE(BigInt(timestamp));
      const msg = Buffer.concat([
        Buffer.from('ton-proof-item-v2/'),
        wc,
        payer.address.hash,
        dl,
        Buffer.from(domain),
        ts,
        Buffer.from(challenge),
      ]);
      const full = Buffer.concat([
        Buffer.from([0xff, 0xff]),
        Buffer.from('ton-connect'),
        createHash('sha256').update(msg).digest(),
      ]);
      const signature = sign(createHash('sha256').update(full).digest(), payer.keys.secretKey).toString('base64');
      const proof = (sig: string, payload = challenge) =>
        JSON.stringify({ timestamp, domain: { lengthBytes: domain.length, value: domain }, signature: sig, payload });
      const bad = Buffer.from(signature, 'base64');
      bad[0] = (bad[0] ?? 0) ^ 1;
      expect(
        (
          await c.api('checkTonProofAuth', {
            account: payer.account(),
            device: '{}',
            proof: proof(bad.toString('base64')),
          })
        ).error,
      ).toBeDefined();
      expect(
        (
          await c.api('checkTonProofAuth', {
            account: payer.account(),
            device: '{}',
            proof: proof(signature, 'ffffffffffffffffff'),
          })
        ).error,
      ).toBeDefined();
      const res = await c.raw('checkTonProofAuth', { account: payer.account(), device: '{}', proof: proof(signature) });
      expect(JSON.parse(res.text)).toEqual({ verified: true });
      const tonToken = /stel_ton_token=([A-Za-z0-9_-]+)/.exec(String(res.headers['set-cookie']))![1]!;
      expect(tonToken.length).toBeGreaterThanOrEqual(150);
      const withWallet = new TestClient(h.app, `${ssid}; ${token}; stel_ton_token=${tonToken}`);
      const page2 = await withWallet.page();
      expect(page2.text).toContain(`"address":"${payer.address.toRawString()}"`);
    } finally {
      await h.close();
    }
  });
});
