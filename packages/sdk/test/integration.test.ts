/**
 * The TypeScript SDK buys for a demo user against the real gateway, worker and sandbox (child
 * processes from source, fresh database), and the seed it sent appears in none of their output.
 */
import { Starsgate, TopUpRequiredError, throwIfFailed, ValidationError } from '../src/index';
import { startStack, type DemoWalletInfo, type Stack } from './support/stack';

let stack: Stack;
let sdk: Starsgate;

beforeAll(async () => {
  stack = await startStack();
  sdk = new Starsgate({ baseURL: stack.gatewayUrl });
}, 240_000);
afterAll(() => stack?.close());

const wallet = (id: string): DemoWalletInfo => stack.wallets.find((w) => w.id === id)!;

it('checks, prices, resolves, buys Stars and polls to completed', async () => {
  const bip39 = wallet('bip39-0');
  const availability = await sdk.checkStarsAvailability({ username: '@alice', amount: 50, payment_method: 'gram' });
  expect(availability).toMatchObject({ available: true, code: 'AVAILABLE' });
  const quote = await sdk.getStarsPrice(50);
  expect(quote.prices.gram).toMatch(/^\d+(\.\d+)?$/);
  const resolved = await sdk.resolveWallet({ seed: bip39.seed, account_index: 0 });
  expect(resolved.wallet_address).toBe(bip39.address);

  const accepted = await sdk.buyStars({
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    seed: bip39.seed,
    account_index: 0,
  });
  expect(accepted).toMatchObject({ status: 'queued', replayed: false });
  const seen: string[] = [];
  const purchase = await sdk.wait(accepted.purchase_id, {
    pollIntervalMs: 250,
    timeoutMs: 120_000,
    onUpdate: (p) => seen.push(p.status),
  });
  expect(purchase).toMatchObject({ status: 'completed', replacementAllowed: false });
  expect(purchase.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
  expect(seen.at(-1)).toBe('completed');
  for (const process of ['gateway', 'worker'] as const) {
    expect(stack.output(process)).toContain('purchase');
    expect(stack.output(process)).not.toContain(bip39.seed);
  }
}, 180_000);

it('the same key again is a replay of the same purchase', async () => {
  const seed = wallet('base64-v5r1').seed;
  const order = {
    product: 'stars',
    username: '@bob',
    amount: 50,
    payment_method: 'gram',
    seed,
    idempotency_key: `sdk-${Date.now()}`,
  } as const;
  const first = await sdk.createPurchase(order);
  const again = await sdk.createPurchase(order);
  expect(again).toMatchObject({ purchase_id: first.purchase_id, replayed: true });
  expect((await sdk.wait(first.purchase_id, { pollIntervalMs: 250, timeoutMs: 120_000 })).status).toBe('completed');
}, 180_000);

it('a wallet that cannot pay ends failed with TOP_UP_REQUIRED and its shortfall', async () => {
  const accepted = await sdk.buyStars({
    username: '@carol',
    amount: 50,
    payment_method: 'gram',
    seed: wallet('poor-v5r1').seed,
  });
  const purchase = await sdk.wait(accepted.purchase_id, { pollIntervalMs: 250, timeoutMs: 120_000 });
  expect(purchase).toMatchObject({ status: 'failed', replacementAllowed: true });
  let error: unknown;
  try {
    throwIfFailed(purchase);
  } catch (thrown) {
    error = thrown;
  }
  expect(error).toBeInstanceOf(TopUpRequiredError);
  const gram = (error as TopUpRequiredError).shortfall.find((line) => line.currency === 'GRAM');
  expect(Number(gram?.shortfall)).toBeGreaterThan(0);
}, 180_000);

it('a 12-word seed without a selection is a typed WALLET_SELECTION_REQUIRED', async () => {
  const error = await sdk.resolveWallet({ seed: wallet('bip39-0').seed }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({ code: 'WALLET_SELECTION_REQUIRED', status: 400 });
  expect(String(error)).not.toContain(wallet('bip39-0').seed);
});

it('checks, prices and buys a GRAM top-up (buyGram) to completed; usdt is a typed 400 PAYMENT_METHOD_UNAVAILABLE', async () => {
  const seed = wallet('base64-v5r1').seed;
  expect(await sdk.checkGramAvailability({ username: '@alice', amount: 2 })).toMatchObject({
    available: true,
    code: 'AVAILABLE',
    product: 'gram',
    payment_method: 'gram',
  });
  expect(await sdk.checkGramAvailability({ username: '@news_channel', amount: 2 })).toMatchObject({
    available: false,
    code: 'RECIPIENT_INELIGIBLE',
  });
  expect((await sdk.getGramPrice(2)).prices.gram).toBe('2');

  const accepted = await sdk.buyGram({ username: '@alice', amount: 2, seed });
  expect(accepted).toMatchObject({ status: 'queued', replayed: false });
  const purchase = await sdk.wait(accepted.purchase_id, { pollIntervalMs: 250, timeoutMs: 120_000 });
  expect(purchase).toMatchObject({ status: 'completed', product: 'gram', amount: 2, payment_method: 'gram' });

  const refused = await sdk
    .createPurchase({
      product: 'gram',
      username: '@alice',
      amount: 2,
      payment_method: 'usdt',
      seed,
      idempotency_key: `sdk-usdt-${Date.now()}`,
    })
    .catch((e: unknown) => e);
  expect(refused).toBeInstanceOf(ValidationError);
  expect(refused).toMatchObject({
    code: 'PAYMENT_METHOD_UNAVAILABLE',
    status: 400,
    action: 'Use payment_method=gram.',
  });
}, 180_000);
