/**
 * GET /api/v1/prices and /api/v1/prices/quote through the real gateway, real Redis and the real
 * Fragment simulator. Expected values are computed by hand from the simulator's list prices
 * ($0.015 per Star; Premium $11.99 / $15.99 / $28.99) and its TON rate, with Fragment's rule
 * GRAM = ceil(USD ÷ tonRate, 4 dp):
 *
 *   stars      USD          ÷ 1.70                 GRAM
 *   50         0.75         0.441176…              0.4412
 *   51         0.765        0.45 exactly           0.45
 *   999,999    14,999.985   8,823.520588…          8823.5206
 *   1,000,000  15,000       8,823.529411…          8823.5295
 *   1,250      18.75        11.029411…             11.0295
 *   777        11.655       6.855882…              6.8559   (derived)
 *   premium 3  11.99        7.052941…              7.053
 *   premium 6  15.99        9.405882…              9.4059
 *   premium 12 28.99        17.052941…             17.053
 */
import request from 'supertest';
import type { TestGateway } from './support/test-gateway';
import { useFragmentGateways } from './support/fragment-sandbox';

const suite = useFragmentGateways({ PRICES_FAILURE_BACKOFF_SECONDS: '1' });
const gateway = (env: Record<string, string> = {}) => suite.gateway(env);

const quote = (gw: TestGateway, query: string) => request(gw.app).get(`/api/v1/prices/quote?${query}`);
const list = (gw: TestGateway, query = '') => request(gw.app).get(`/api/v1/prices${query}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Makes every Fragment read fail the given way. */
function breakFragment(faults: Record<string, unknown>): void {
  suite.fragment.configure({ faults: { methods: { page: faults, updateStarsPrices: faults } } });
}

describe('exact quotes', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await gateway();
  });

  it.each([
    [50, '0.4412', '0.75'],
    [51, '0.45', '0.765'],
    [999_999, '8823.5206', '14999.985'],
    [1_000_000, '8823.5295', '15000'],
    [1_250, '11.0295', '18.75'],
  ])("%i stars → %s GRAM / %s USDT, from Fragment's price for that quantity", async (amount, gram, usdt) => {
    const before = suite.fragment.calls('updateStarsPrices');
    const res = await quote(gw, `product=stars&amount=${amount}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      product: 'stars',
      amount,
      quantities: { stars: amount },
      prices: { gram, usdt },
      stale: false,
      derived: false,
      quoted_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
    expect(suite.fragment.calls('updateStarsPrices') - before).toBe(1);
    // Cached briefly: the same quantity again costs no Fragment call.
    const again = await quote(gw, `product=stars&amount=${amount}`);
    expect(again.body.prices).toEqual({ gram, usdt });
    expect(suite.fragment.calls('updateStarsPrices') - before).toBe(1);
  });

  it.each([
    [3, '7.053', '11.99'],
    [6, '9.4059', '15.99'],
    [12, '17.053', '28.99'],
  ])('premium %i months → %s GRAM / %s USDT, from the gift page', async (amount, gram, usdt) => {
    const res = await quote(gw, `product=premium&amount=${amount}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      product: 'premium',
      amount,
      prices: { gram, usdt },
      stale: false,
      derived: false,
    });
  });

  it('reads all three Premium prices from one page load', async () => {
    const fresh = await gateway();
    const before = suite.fragment.calls('GET /premium/gift');
    for (const months of [3, 6, 12]) expect((await quote(fresh, `product=premium&amount=${months}`)).status).toBe(200);
    expect(suite.fragment.calls('GET /premium/gift') - before).toBe(1);
  });

  it('passes an exact rate through without rounding (tonRate 3.125: 50 stars = 0.24 GRAM)', async () => {
    suite.fragment.configure({ tonRate: '3.125' });
    const fresh = await gateway();
    const res = await quote(fresh, 'product=stars&amount=50');
    expect(res.body.prices).toEqual({ gram: '0.24', usdt: '0.75' });
    // 1,000,000 stars = 15,000 USD = 4,800 GRAM exactly.
    expect((await quote(fresh, 'product=stars&amount=1000000')).body.prices).toEqual({ gram: '4800', usdt: '15000' });
  });
});

describe('query validation', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await gateway();
  });

  it.each<[string, string, string]>([
    ['', 'VALIDATION_FAILED', 'product'],
    ['product=stars', 'INVALID_AMOUNT', 'amount'],
    ['amount=50', 'VALIDATION_FAILED', 'product'],
    ['product=stars&amount=49', 'INVALID_AMOUNT', 'amount'],
    ['product=stars&amount=1000001', 'INVALID_AMOUNT', 'amount'],
    ['product=stars&amount=12.5', 'INVALID_AMOUNT', 'amount'],
    ['product=stars&amount=abc', 'INVALID_AMOUNT', 'amount'],
    ['product=stars&amount=50&amount=60', 'INVALID_AMOUNT', 'amount'],
    ['product=premium&amount=5', 'INVALID_AMOUNT', 'amount'],
    ['product=gifts&amount=50', 'VALIDATION_FAILED', 'product'],
    ['product=stars&amount=50&username=@alice', 'UNKNOWN_FIELD', 'username'],
  ])('?%s → 400 %s naming %s', async (query, code, field) => {
    const before = suite.fragment.calls('updateStarsPrices');
    const res = await quote(gw, query);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(code);
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field })]));
    expect(suite.fragment.calls('updateStarsPrices')).toBe(before);
  });

  it('the list takes no parameters', async () => {
    const res = await list(gw, '?product=stars');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_FIELD', details: [{ field: 'product' }] });
  });
});

describe('price list', () => {
  it('answers the 50-stars reference and Premium 3/6/12, fetching it when nothing is stored', async () => {
    const gw = await gateway();
    const res = await list(gw);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      stars: { '50': { gram: '0.4412', usdt: '0.75' } },
      premium: {
        '3': { gram: '7.053', usdt: '11.99' },
        '6': { gram: '9.4059', usdt: '15.99' },
        '12': { gram: '17.053', usdt: '28.99' },
      },
      stale: false,
      updated_at: expect.stringMatching(ISO),
    });
    // The list is served from Redis afterwards.
    const before = suite.fragment.calls('updateStarsPrices');
    expect((await list(gw)).body.updated_at).toBe(res.body.updated_at);
    expect(suite.fragment.calls('updateStarsPrices')).toBe(before);
  });

  it('nothing ever fetched and Fragment down → 503 PRICES_UNAVAILABLE, then recovery', async () => {
    const gw = await gateway();
    breakFragment({ serverErrorRate: 1 });
    for (const res of [
      await list(gw),
      await quote(gw, 'product=stars&amount=100'),
      await quote(gw, 'product=premium&amount=3'),
    ]) {
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ code: 'PRICES_UNAVAILABLE', retry_after: 5 });
      expect(res.headers['retry-after']).toBe('5');
    }
    suite.fragment.heal();
    await sleep(1_100); // the failure backoff
    expect((await list(gw)).body.stale).toBe(false);
  });
});

describe('staleness when Fragment fails', () => {
  it.each<[string, Record<string, unknown>]>([
    ['5xx', { serverErrorRate: 1 }],
    ['timeouts', { timeoutRate: 1 }],
    ['429', { rateLimitRate: 1, retryAfterSeconds: 1 }],
    ['Cloudflare', { cloudflareRate: 1 }],
  ])('%s: the last known quote comes back with stale: true, then fresh again on recovery', async (_label, faults) => {
    const gw = await gateway({ PRICES_QUOTE_TTL_SECONDS: '1' });
    const fresh = await quote(gw, 'product=stars&amount=1250');
    expect(fresh.body).toMatchObject({ stale: false, prices: { gram: '11.0295', usdt: '18.75' } });
    breakFragment(faults);
    await sleep(1_100); // past the quote TTL
    const stale = await quote(gw, 'product=stars&amount=1250');
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({
      stale: true,
      derived: false,
      prices: { gram: '11.0295', usdt: '18.75' },
      updated_at: fresh.body.updated_at,
    });
    expect(Date.parse(stale.body.quoted_at)).toBeGreaterThan(Date.parse(stale.body.updated_at));

    suite.fragment.heal();
    await sleep(1_100); // failure backoff (and any 429 cooldown) over
    const recovered = await quote(gw, 'product=stars&amount=1250');
    expect(recovered.body.stale).toBe(false);
    expect(Date.parse(recovered.body.updated_at)).toBeGreaterThan(Date.parse(fresh.body.updated_at));
  });

  it('the list turns stale past PRICES_STALE_AFTER_SECONDS when Fragment cannot refresh it', async () => {
    const gw = await gateway({ PRICES_STALE_AFTER_SECONDS: '1' });
    const fresh = await list(gw);
    breakFragment({ serverErrorRate: 1 });
    await sleep(1_100);
    const stale = await list(gw);
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({
      stale: true,
      updated_at: fresh.body.updated_at,
      stars: fresh.body.stars,
      premium: fresh.body.premium,
    });
    suite.fragment.heal();
    await sleep(1_100);
    const recovered = await list(gw);
    expect(recovered.body.stale).toBe(false);
  });

  it('a Premium quote falls back to the last known page prices', async () => {
    const gw = await gateway({ PRICES_QUOTE_TTL_SECONDS: '1' });
    await quote(gw, 'product=premium&amount=6');
    breakFragment({ serverErrorRate: 1 });
    await sleep(1_100);
    const res = await quote(gw, 'product=premium&amount=6');
    expect(res.body).toMatchObject({ stale: true, prices: { gram: '9.4059', usdt: '15.99' } });
  });

  it('a quantity Fragment never priced is derived from the last known list, flagged stale and derived', async () => {
    const gw = await gateway();
    await list(gw);
    breakFragment({ serverErrorRate: 1 });
    const res = await quote(gw, 'product=stars&amount=777');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ stale: true, derived: true, prices: { gram: '6.8559', usdt: '11.655' } });
    // The derivation reproduces Fragment's own figures at the boundaries.
    expect((await quote(gw, 'product=stars&amount=999999')).body).toMatchObject({
      derived: true,
      prices: { gram: '8823.5206', usdt: '14999.985' },
    });
    expect((await quote(gw, 'product=stars&amount=51')).body).toMatchObject({
      derived: true,
      prices: { gram: '0.45', usdt: '0.765' },
    });
  });

  it('a Fragment failure is not asked again on every request (failure backoff)', async () => {
    const gw = await gateway({ PRICES_FAILURE_BACKOFF_SECONDS: '30' });
    await list(gw);
    breakFragment({ serverErrorRate: 1 });
    await quote(gw, 'product=stars&amount=300');
    const after = suite.fragment.calls('updateStarsPrices');
    for (const amount of [301, 302, 303])
      expect((await quote(gw, `product=stars&amount=${amount}`)).body.derived).toBe(true);
    expect(suite.fragment.calls('updateStarsPrices')).toBe(after);
  });

  it('a new TON rate shows up once the quote TTL passes', async () => {
    const gw = await gateway({ PRICES_QUOTE_TTL_SECONDS: '1' });
    expect((await quote(gw, 'product=stars&amount=50')).body.prices.gram).toBe('0.4412');
    suite.fragment.configure({ tonRate: '2.5' });
    await sleep(1_100);
    expect((await quote(gw, 'product=stars&amount=50')).body.prices).toEqual({ gram: '0.3', usdt: '0.75' });
  });
});

describe('openapi', () => {
  it('documents the read endpoints and says prices are not reserved', async () => {
    const gw = await gateway();
    const res = await request(gw.app).get('/openapi.json');
    const paths = res.body.paths as Record<string, Record<string, { description: string }>>;
    expect(paths['/api/v1/prices/quote']?.get?.description).toMatch(/NOT reserved/);
    expect(paths['/api/v1/prices']?.get?.description).toMatch(/NOT reserved/);
    expect(paths['/api/v1/availability/check']?.post?.description).toMatch(/point-in-time/);
    expect(Object.keys(res.body.components.schemas)).toEqual(
      expect.arrayContaining(['AvailabilityResult', 'PriceQuote', 'PriceList', 'PricePair']),
    );
  });
  it('every money field is a decimal string: type string, format decimal, a pattern', async () => {
    const token = `prices-test-${'0123456789abcdef'.repeat(2)}`;
    const gw = await gateway({ STARSGATE_ADMIN_TOKENS: token });
    const document = (await request(gw.app).get('/openapi.json')).body as { components: { schemas: object } };
    // The operator API's money fields are in its own document, on the operator listener.
    const operatorDocument = (
      await request(gw.adminApp).get('/admin/api/openapi.json').set('Authorization', `Bearer ${token}`)
    ).body as { components: { schemas: object } };
    // Names that carry money wherever they appear; the shortfall trio inside error details; `amount` in a TON Connect message.
    const MONEY = new Set(['gram', 'usdt', 'quote', 'message_nano', 'jetton_units']);
    const SHORTFALL = new Set(['required', 'available', 'shortfall']);
    const isMoney = (name: string, where: string) =>
      MONEY.has(name) ||
      (SHORTFALL.has(name) && where.endsWith('details.items')) ||
      (name === 'amount' && where.includes('TonConnectTransaction'));
    const found: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (Array.isArray(node)) return node.forEach((child, index) => walk(child, `${where}[${index}]`));
      if (node === null || typeof node !== 'object') return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const [name, field] of Object.entries(properties ?? {})) {
        const { type, format, pattern } = field as { type?: string | string[]; format?: string; pattern?: string };
        if (!isMoney(name, where) || type === 'object') continue;
        found.push(`${where}.${name}`);
        expect({ where: `${where}.${name}`, string: [type].flat().includes('string'), format }).toEqual({
          where: `${where}.${name}`,
          string: true,
          format: 'decimal',
        });
        expect(() => new RegExp(pattern ?? '(')).not.toThrow();
      }
      for (const [key, child] of Object.entries(node)) walk(child, `${where}.${key}`);
    };
    walk(document.components.schemas, 'schemas');
    walk(operatorDocument.components.schemas, 'schemas');
    expect(found).toEqual(
      expect.arrayContaining([
        'schemas.PricePair.gram',
        'schemas.ResolvedWallet.properties.balances.usdt',
        'schemas.Checkout.properties.prices.gram',
        'schemas.Purchase.properties.error.properties.details.items.shortfall',
        'schemas.TonConnectTransaction.properties.messages.items.amount',
        'schemas.AdminPurchaseDetail.properties.paid_amount.quote',
      ]),
    );
  });
});
