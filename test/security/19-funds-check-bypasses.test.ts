/**
 * Attack 19 (docs/security.md): the funds check before Fragment had ways around it.
 * (c) The per-payer cap (OPEN_ORDERS_PER_PAYER) counted orders by wallet address, which a seed
 * sent without `wallet_address` gets only once the worker resolves its version: such orders were
 * not counted, so one seed opened any number. Now they count by the seed's public key too.
 * (e) When the price book could not price the order, the check was skipped silently (and with
 * PRICES_REFRESH_ENABLED=false the worker had no price book at all): the order went to Fragment
 * unchecked. Now such a purchase ends `failed PRICES_UNAVAILABLE` and Fragment is not asked.
 */
import { post, startCheckoutGateway, WorkerHarness, type CheckoutGateway } from '@starsgate/worker/testing';

jest.setTimeout(180_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  await h?.close();
});

async function fragmentOrders(): Promise<number> {
  return ((await (await fetch(`${h.sandbox.url}/admin/fragment/orders`)).json()) as unknown[]).length;
}

test('(e) a price book that cannot price the order: PRICES_UNAVAILABLE, and Fragment made no order', async () => {
  // Fragment cannot quote Stars, and this count was never priced nor a list stored: the book has no answer.
  h.sandbox.fragment!.configure({ faults: { methods: { updateStarsPrices: { errorRate: 1 } } } });
  try {
    await expect(h.deps.prices.quote('stars', 777)).rejects.toThrow();
    const before = await fragmentOrders();
    const created = await h.createPurchase({
      product: 'stars',
      username: '@alice',
      amount: 777,
      payment_method: 'gram',
      seed: h.wallet('base64-v5r1').seed,
    });
    const row = await h.waitFor(created.id, ['failed', 'sending', 'submitted', 'confirming', 'completed']);
    expect({ status: row.status, code: (row.error as { code?: string } | null)?.code }).toEqual({
      status: 'failed',
      code: 'PRICES_UNAVAILABLE',
    });
    expect(row.fragmentReqId).toBeNull();
    expect(await fragmentOrders()).toBe(before);
  } finally {
    await fetch(`${h.sandbox.url}/admin/fragment/faults/reset`, { method: 'POST' });
  }
});

describe('(c) the per-payer cap counts every order of a seed', () => {
  let idle: WorkerHarness;
  let capped: CheckoutGateway;

  // No worker: the orders stay queued, their wallet not yet resolved, as they are behind a backlog.
  beforeAll(async () => {
    idle = await WorkerHarness.start({ worker: false });
    capped = startCheckoutGateway(idle, { OPEN_ORDERS_PER_PAYER: '2', KEY_DERIVATIONS_PER_MINUTE: '100000' });
  });

  afterAll(async () => {
    await capped?.close();
    await idle?.close();
  });

  const purchase = (seed: string, extra: Record<string, unknown> = {}) =>
    post(capped.app, '/api/v1/purchases', {
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed,
      idempotency_key: crypto.randomUUID(),
      ...extra,
    });

  test('a 24-word seed without wallet_address: the third open order is 429 OPEN_ORDERS_LIMIT_REACHED', async () => {
    const wallet = idle.wallet('ton24-v4r2');
    const first = await purchase(wallet.seed);
    expect(first.status).toBe(202);
    // Stored without a wallet address: the seed names three candidate wallets.
    expect((await idle.find(first.body.purchase_id!)).walletAddress).toBeNull();
    expect((await purchase(wallet.seed, { wallet_address: wallet.address })).status).toBe(202);

    const refused = await purchase(wallet.seed);
    expect({ status: refused.status, code: refused.body.code }).toEqual({
      status: 429,
      code: 'OPEN_ORDERS_LIMIT_REACHED',
    });
    // Another seed has its own allowance.
    expect((await purchase(idle.wallet('base64-v5r1').seed)).status).toBe(202);
  });
});
