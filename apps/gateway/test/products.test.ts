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

describe('GET /api/v1/prices keeps its shape', () => {
  it('lists Stars and Premium only, as before /api/v1/products', async () => {
    const gw = await suite.gateway();
    const res = await request(gw.app).get('/api/v1/prices');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['premium', 'stale', 'stars', 'updated_at']);
  });
});
