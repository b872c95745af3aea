/**
 * GET /api/v1/products through the real gateway, real Redis and the real Fragment simulator: the
 * registry served (fields, limits, payment methods, recipient kind) beside each product's
 * reference prices (the simulator's list prices at its TON rate 1.70, as prices.test.ts works them out).
 */
import request from 'supertest';
import { PRODUCTS, productDescription } from '@starsgate/domain';
import { useFragmentGateways } from './support/fragment-sandbox';

const suite = useFragmentGateways({ PRICES_FAILURE_BACKOFF_SECONDS: '1' });

describe('GET /api/v1/products', () => {
  it('serves every product of the registry with its fields and its reference prices', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/api/v1/products');
    expect(res.status).toBe(200);
    expect(res.body.products.map((entry: { product: string }) => entry.product)).toEqual(PRODUCTS);
    expect(res.body.products).toContainEqual({
      product: 'stars',
      title: 'Telegram Stars',
      recipient_kind: 'user',
      payment_methods: ['gram', 'usdt'],
      pricing: 'quoted',
      fields: [{ name: 'amount', quantity: 'stars', type: 'integer', minimum: 50, maximum: 1_000_000 }],
    });
    expect(res.body.products).toContainEqual({
      product: 'premium',
      title: 'Telegram Premium',
      recipient_kind: 'user',
      payment_methods: ['gram', 'usdt'],
      pricing: 'quoted',
      fields: [{ name: 'amount', quantity: 'months', type: 'integer', choices: [3, 6, 12] }],
    });
    expect(res.body.products).toContainEqual({
      product: 'gram',
      title: 'GRAM top-up',
      recipient_kind: 'user',
      payment_methods: ['gram'],
      pricing: 'face_value',
      fields: [{ name: 'amount', quantity: 'gram', type: 'integer', minimum: 1, maximum: 1_000_000 }],
    });
    expect(res.body.products).toContainEqual({
      product: 'premium_giveaway',
      title: 'Telegram Premium giveaway',
      recipient_kind: 'channel',
      payment_methods: ['gram', 'usdt'],
      pricing: 'quoted',
      fields: [
        { name: 'winners', quantity: 'winners', type: 'integer', minimum: 1, maximum: 24_000 },
        { name: 'months', quantity: 'months', type: 'integer', choices: [3, 6, 12] },
      ],
    });
    // The giveaway's reference: each months option for one winner (the simulator prices a winner as a gift).
    expect(res.body.prices.premium_giveaway).toEqual(res.body.prices.premium);
    expect(res.body.prices.stars).toEqual({ '50': { gram: '0.4412', usdt: '0.75' } });
    expect(res.body.prices.premium['12']).toEqual({ gram: '17.053', usdt: '28.99' });
    expect(res.body.prices.gram['1'].gram).toBe('1');
    expect(Object.keys(res.body.prices).sort()).toEqual([...PRODUCTS].sort());
    expect(res.body.stale).toBe(false);
    expect(res.body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const product of PRODUCTS) expect(productDescription(product).paymentMethods.length).toBeGreaterThan(0);
  });

  it('still serves the catalog when no price was ever fetched and Fragment cannot answer', async () => {
    const gw = await suite.gateway();
    suite.fragment.configure({
      faults: { methods: { page: { serverErrorRate: 1 }, updateStarsPrices: { serverErrorRate: 1 } } },
    });
    const res = await request(gw.app).get('/api/v1/products');
    suite.fragment.heal();
    expect(res.status).toBe(200);
    expect(res.body.products).toHaveLength(PRODUCTS.length);
    expect(res.body).toMatchObject({ prices: {}, stale: true });
    expect(res.body.updated_at).toBeUndefined();
  });

  it('refuses query parameters like the price list does', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/api/v1/products?product=stars');
    expect(res.status).toBe(400);
  });
});

describe('a giveaway quote', () => {
  it('prices winners × months from updatePremiumGiveawayPrices: 10 winners × 3 months = 10 × $11.99', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/api/v1/prices/quote?product=premium_giveaway&winners=10&months=3');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      product: 'premium_giveaway',
      amount: 10,
      quantities: { winners: 10, months: 3 },
      prices: { gram: '70.5295', usdt: '119.9' },
      stale: false,
    });
    const refused = await request(gw.app).get('/api/v1/prices/quote?product=premium_giveaway&amount=10');
    expect(refused.status).toBe(400);
  });
});

describe('a giveaway availability check', () => {
  it.each([
    ['@starsgate_channel', 'AVAILABLE'],
    ['@alice', 'RECIPIENT_INELIGIBLE'],
    ['@helper_bot', 'RECIPIENT_INELIGIBLE'],
  ])('%s → %s', async (username, code) => {
    const gw = await suite.gateway();
    const res = await request(gw.app)
      .post('/api/v1/availability/check')
      .send({ product: 'premium_giveaway', username, winners: 5, months: 12, payment_method: 'usdt' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ code, amount: 5, quantities: { winners: 5, months: 12 } });
  });
});

describe('GET /api/v1/prices keeps its shape', () => {
  it('lists Stars and Premium only, as before /api/v1/products', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/api/v1/prices');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['premium', 'stale', 'stars', 'updated_at']);
  });
});

describe('the OpenAPI document names the products from the registry', () => {
  it('its introduction names every product, and the top-up as paid in GRAM only', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/openapi.json');
    expect(res.status).toBe(200);
    const introduction = (res.body as { info: { description: string } }).info.description.split('\n')[0]!;
    for (const product of PRODUCTS) expect(introduction).toContain(productDescription(product).title);
    expect(introduction).toContain('Telegram Premium giveaway');
    expect(introduction).toMatch(/\(GRAM top-up in GRAM only\)\.$/);
    const prices = (res.body as { paths: Record<string, { get: { summary: string } }> }).paths['/api/v1/prices']!;
    expect(prices.get.summary).toBe('Reference prices: 50 Stars and Premium 3/6/12 months');
  });
});
