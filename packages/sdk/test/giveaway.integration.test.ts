/**
 * The TypeScript SDK on a Premium giveaway against the real gateway, worker and sandbox: the
 * catalogue names its fields, availability refuses a user as its recipient, a quote and a purchase
 * by `quantities` (paid in USDT) and a checkout by request fields read back with those quantities.
 * Needs the server side of issue 38 (the giveaway in the gateway, the worker and the simulator):
 * kept apart from integration.test.ts, which runs without it. The simulator's history rows show
 * the order's Ref# here (its `historyShowsRef` switch): only such a row proves a giveaway's delivery
 * (docs/fragment-protocol.md §22); without it the purchase ends reconciliation_required.
 */
import { Starsgate, ValidationError } from '../src/index';
import { startStack, type DemoWalletInfo, type Stack } from './support/stack';

const CHANNEL = '@news_channel';

let stack: Stack;
let sdk: Starsgate;

beforeAll(async () => {
  stack = await startStack();
  sdk = new Starsgate({ baseURL: stack.gatewayUrl });
  const faults = await fetch(`${stack.sandboxUrl}/admin/fragment/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ historyShowsRef: true }),
  });
  expect(faults.status).toBe(200);
}, 240_000);
afterAll(() => stack?.close());

const wallet = (id: string): DemoWalletInfo => stack.wallets.find((w) => w.id === id)!;

it('products.list() describes the giveaway: a channel, winners 1 to 24,000, months 3, 6 or 12', async () => {
  const catalog = await sdk.products.list();
  const giveaway = catalog.products.find((entry) => entry.product === 'premium_giveaway');
  expect(giveaway).toMatchObject({
    recipient_kind: 'channel',
    fields: [
      { name: 'winners', quantity: 'winners', type: 'integer', minimum: 1, maximum: 24_000 },
      { name: 'months', quantity: 'months', type: 'integer', choices: [3, 6, 12] },
    ],
  });
  expect([...giveaway!.payment_methods].sort()).toEqual(['gram', 'usdt']);
  expect(catalog.products.map((entry) => entry.product)).toEqual(
    expect.arrayContaining(['stars', 'premium', 'gram', 'premium_giveaway']),
  );
  expect(Object.keys(catalog.prices)).toEqual(expect.arrayContaining(['premium_giveaway']));
});

it('availability: a channel can receive it, a user cannot', async () => {
  const order = {
    product: 'premium_giveaway',
    quantities: { winners: 10, months: 3 },
    payment_method: 'gram',
  } as const;
  expect(await sdk.checkAvailability({ ...order, username: CHANNEL })).toMatchObject({
    available: true,
    code: 'AVAILABLE',
  });
  expect(await sdk.checkAvailability({ ...order, username: '@alice' })).toMatchObject({
    available: false,
    code: 'RECIPIENT_INELIGIBLE',
  });
});

it('a quote by quantities, and invalid winners named in the 400', async () => {
  const quote = await sdk.getQuote('premium_giveaway', { winners: 10, months: 6 });
  expect(quote.prices.gram).toMatch(/^\d+(\.\d+)?$/);
  expect(quote.prices.usdt).toMatch(/^\d+(\.\d+)?$/);
  const error = await sdk
    .createPurchase({
      product: 'premium_giveaway',
      username: CHANNEL,
      winners: 24_001,
      months: 3,
      payment_method: 'gram',
      seed: wallet('base64-v5r1').seed,
      idempotency_key: `giveaway-too-many-${Date.now()}`,
    })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect((error as ValidationError).code).toBe('INVALID_AMOUNT');
  expect(JSON.stringify((error as ValidationError).details)).toContain('winners');
});

it('a giveaway bought by quantities, paid in USDT, ends completed with its quantities', async () => {
  const accepted = await sdk.createPurchase({
    product: 'premium_giveaway',
    username: CHANNEL,
    quantities: { winners: 10, months: 3 },
    payment_method: 'usdt',
    seed: wallet('base64-v5r1').seed,
    idempotency_key: `giveaway-${Date.now()}`,
  });
  expect(accepted).toMatchObject({ status: 'queued', replayed: false });
  const purchase = await sdk.wait(accepted.purchase_id, { pollIntervalMs: 250, timeoutMs: 150_000 });
  expect(purchase).toMatchObject({
    status: 'completed',
    product: 'premium_giveaway',
    username: CHANNEL,
    amount: 10,
    quantities: { winners: 10, months: 3 },
    payment_method: 'usdt',
  });
}, 180_000);

it('a giveaway checkout by request fields carries its quantities', async () => {
  const accepted = await sdk.createCheckout({
    product: 'premium_giveaway',
    username: CHANNEL,
    winners: 5,
    months: 12,
    payment_method: 'gram',
    payer_address: wallet('base64-v5r1').address,
    idempotency_key: `giveaway-checkout-${Date.now()}`,
  });
  const checkout = await sdk.waitForCheckoutTransaction(accepted.checkout_id, { pollIntervalMs: 250 });
  expect(checkout).toMatchObject({
    status: 'awaiting_signature',
    product: 'premium_giveaway',
    quantities: { winners: 5, months: 12 },
  });
  expect(checkout.transaction?.messages.length).toBeGreaterThan(0);
}, 120_000);
