/**
 * Any product through the generic methods: the catalogue (`products.list()`), and orders given by
 * their quantities, turned into the request fields the catalogue names (a giveaway's `winners` and
 * `months`, Stars' `amount`), the catalogue read once per client.
 */
import { Starsgate, ValidationError, type ProductCatalog } from '../src/index';
import {
  CHECKOUT_ID,
  errorBody,
  json,
  PURCHASE_ID,
  scriptedFetch,
  SEED,
  type SentRequest,
} from './support/scripted-fetch';

const CATALOG: ProductCatalog = {
  products: [
    {
      product: 'stars',
      title: 'Telegram Stars',
      recipient_kind: 'user',
      payment_methods: ['gram', 'usdt'],
      pricing: 'quoted',
      fields: [{ name: 'amount', quantity: 'stars', type: 'integer', minimum: 50, maximum: 1_000_000 }],
    },
    {
      product: 'premium_giveaway',
      title: 'Telegram Premium giveaway',
      recipient_kind: 'channel',
      payment_methods: ['gram', 'usdt'],
      pricing: 'quoted',
      fields: [
        { name: 'winners', quantity: 'winners', type: 'integer', minimum: 1, maximum: 24_000 },
        { name: 'months', quantity: 'months', type: 'integer', choices: [3, 6, 12] },
      ],
    },
  ],
  prices: { stars: { '50': { gram: '0.2561', usdt: '0.75' } } },
  stale: false,
  updated_at: '2026-11-28T16:00:00.000Z',
};
const ACCEPTED = { purchase_id: PURCHASE_ID, status: 'queued', status_url: `/api/v1/purchases/${PURCHASE_ID}` };
const CHECKOUT_ACCEPTED = {
  checkout_id: CHECKOUT_ID,
  status: 'preparing',
  status_url: `/api/v1/checkouts/${CHECKOUT_ID}`,
};
const PAYER = `0:${'ab'.repeat(32)}`;

function answer(request: SentRequest): Response {
  const route = `${request.method} ${request.url.pathname}`;
  if (route === 'GET /api/v1/products') return json(200, CATALOG);
  if (route === 'POST /api/v1/purchases') return json(202, ACCEPTED);
  if (route === 'POST /api/v1/checkouts') return json(202, CHECKOUT_ACCEPTED);
  if (route === 'POST /api/v1/availability/check') return json(200, { available: true, code: 'AVAILABLE' });
  if (route === 'GET /api/v1/prices/quote') return json(200, { prices: { gram: '12.5', usdt: '40' } });
  throw new Error(`unexpected ${route}`);
}

function sdkWith(answers: Parameters<typeof scriptedFetch>[0] = answer) {
  const script = scriptedFetch(answers);
  const sdk = new Starsgate({ baseURL: 'http://127.0.0.1:8080', fetch: script.fetch, maxRetries: 0 });
  return { sdk, sent: script.sent };
}

const routes = (sent: SentRequest[]) => sent.map((r) => `${r.method} ${r.url.pathname}${r.url.search}`);

it('products.list() and listProducts() read GET /api/v1/products', async () => {
  const { sdk, sent } = sdkWith();
  expect(await sdk.products.list()).toEqual(CATALOG);
  expect((await sdk.listProducts()).products.map((p) => p.product)).toEqual(['stars', 'premium_giveaway']);
  expect(routes(sent)).toEqual(['GET /api/v1/products', 'GET /api/v1/products']);
});

it('a giveaway by its request fields is sent as given, without reading the catalogue', async () => {
  const { sdk, sent } = sdkWith();
  await sdk.createPurchase({
    product: 'premium_giveaway',
    username: '@channel',
    winners: 10,
    months: 3,
    payment_method: 'usdt',
    seed: SEED,
    idempotency_key: 'giveaway-1',
  });
  expect(routes(sent)).toEqual(['POST /api/v1/purchases']);
  expect(sent[0]!.body).toEqual({
    product: 'premium_giveaway',
    username: '@channel',
    winners: 10,
    months: 3,
    payment_method: 'usdt',
    seed: SEED,
    idempotency_key: 'giveaway-1',
  });
});

it('orders by quantities become the fields the catalogue names; the catalogue is read once', async () => {
  const { sdk, sent } = sdkWith();
  await sdk.createPurchase({
    product: 'premium_giveaway',
    username: '@channel',
    quantities: { winners: 24_000, months: 12 },
    payment_method: 'gram',
    seed: SEED,
    idempotency_key: 'giveaway-2',
  });
  await sdk.createCheckout({
    product: 'stars',
    username: '@alice',
    quantities: { stars: 50 },
    payment_method: 'gram',
    payer_address: PAYER,
    idempotency_key: 'stars-1',
  });
  await sdk.checkAvailability({
    product: 'premium_giveaway',
    username: '@channel',
    quantities: { winners: 1, months: 6 },
    payment_method: 'usdt',
  });
  const quote = await sdk.getQuote('premium_giveaway', { winners: 10, months: 3 });
  expect(quote.prices.gram).toBe('12.5');
  expect(routes(sent)).toEqual([
    'GET /api/v1/products',
    'POST /api/v1/purchases',
    'POST /api/v1/checkouts',
    'POST /api/v1/availability/check',
    'GET /api/v1/prices/quote?product=premium_giveaway&winners=10&months=3',
  ]);
  expect(sent[1]!.body).toMatchObject({ product: 'premium_giveaway', winners: 24_000, months: 12 });
  expect(sent[1]!.body).not.toHaveProperty('quantities');
  expect(sent[2]!.body).toEqual({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: PAYER,
    idempotency_key: 'stars-1',
  });
  expect(sent[3]!.body).toEqual({
    product: 'premium_giveaway',
    username: '@channel',
    winners: 1,
    months: 6,
    payment_method: 'usdt',
  });
});

it('a quantity the product does not have is sent under its own name, for the gateway to name in its 400', async () => {
  const { sdk, sent } = sdkWith((request) =>
    request.url.pathname === '/api/v1/products'
      ? json(200, CATALOG)
      : json(400, errorBody('UNKNOWN_FIELD', { details: [{ field: 'carats', message: 'is not a field' }] })),
  );
  const error = await sdk
    .createPurchase({
      product: 'stars',
      username: '@alice',
      quantities: { carats: 5 },
      payment_method: 'gram',
      seed: SEED,
      idempotency_key: 'k',
    })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(sent[1]!.body).toMatchObject({ product: 'stars', carats: 5 });
});

it('a failed catalogue read fails the order, sends nothing, and is read again next time', async () => {
  const { sdk, sent } = sdkWith([json(503, errorBody('SERVICE_UNAVAILABLE')), json(200, CATALOG), json(202, ACCEPTED)]);
  const order = {
    product: 'stars' as const,
    username: '@alice',
    quantities: { stars: 50 },
    payment_method: 'gram' as const,
    seed: SEED,
    idempotency_key: 'k-1',
  };
  await expect(sdk.createPurchase(order)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  expect(await sdk.createPurchase(order)).toMatchObject({ purchase_id: PURCHASE_ID });
  expect(routes(sent)).toEqual(['GET /api/v1/products', 'GET /api/v1/products', 'POST /api/v1/purchases']);
  expect(sent[2]!.body).toMatchObject({ amount: 50, idempotency_key: 'k-1' });
});

it('a missing key is refused before the catalogue is read', async () => {
  const { sdk, sent } = sdkWith();
  await expect(
    sdk.createCheckout({
      product: 'stars',
      username: '@alice',
      quantities: { stars: 50 },
      payment_method: 'gram',
      payer_address: PAYER,
      idempotency_key: '',
    }),
  ).rejects.toBeInstanceOf(TypeError);
  expect(sent).toEqual([]);
});
