/**
 * Attack 19 (docs/security.md): the funds check before Fragment had ways around it.
 * (b) Parallel orders of one payer were each compared with its whole balance: a wallet that could
 * pay for one checkout opened Fragment orders for as many as it liked. Now the check sets aside
 * what the payer's open orders need (accepted requests exactly, older unpriced orders by the price
 * book), so the second order fails TOP_UP_REQUIRED before Fragment is asked.
 * (c) The per-payer cap (OPEN_ORDERS_PER_PAYER) counted orders by wallet address, which a seed
 * sent without `wallet_address` gets only once the worker resolves its version: such orders were
 * not counted, so one seed opened any number. Now they count by the seed's public key too.
 * (e) When the price book could not price the order, the check was skipped silently (and with
 * PRICES_REFRESH_ENABLED=false the worker had no price book at all): the order went to Fragment
 * unchecked. Now such a purchase ends `failed PRICES_UNAVAILABLE` and Fragment is not asked.
 */
import { GRAM_DECIMALS, parseUnits } from '@starsgate/domain';
import {
  CheckoutBuyer,
  post,
  startCheckoutGateway,
  waitForCheckout,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';

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

describe("(b) the funds check reserves what the payer's open orders need", () => {
  let gw: CheckoutGateway;

  beforeAll(() => {
    gw = startCheckoutGateway(h);
  });

  afterAll(async () => {
    await gw?.close();
  });

  /** A deployed buyer wallet holding enough for one 50-Star order (and its fee reserve), not two. */
  async function buyerForOneOrder(): Promise<CheckoutBuyer> {
    const price = parseUnits((await h.deps.prices.quote('stars', 50)).prices.gram, GRAM_DECIMALS);
    return CheckoutBuyer.create(h, { gram: (price * 3n) / 2n + h.config.gramFeeReserveNano });
  }

  const checkout = (buyer: CheckoutBuyer) =>
    post(gw.app, '/api/v1/checkouts', {
      username: '@alice',
      payer_address: buyer.address.toString(),
      idempotency_key: crypto.randomUUID(),
      product: 'stars',
      amount: 50,
      payment_method: 'gram',
    });

  const outcome = async (id: string) => {
    const body = await waitForCheckout(gw.app, id, ['failed', 'awaiting_signature']);
    return { status: body.status, code: (body.error as { code?: string } | undefined)?.code };
  };

  test('a second checkout while the first waits for its signature: TOP_UP_REQUIRED, no second Fragment order', async () => {
    const buyer = await buyerForOneOrder();
    const first = await checkout(buyer);
    expect(await outcome(first.body.checkout_id!)).toEqual({ status: 'awaiting_signature', code: undefined });
    const before = await fragmentOrders();

    const second = await checkout(buyer);
    expect(second.status).toBe(202);
    expect(await outcome(second.body.checkout_id!)).toEqual({ status: 'failed', code: 'TOP_UP_REQUIRED' });
    expect(await fragmentOrders()).toBe(before);
  });

  test('two checkouts at once: the older is prepared, the newer fails TOP_UP_REQUIRED', async () => {
    const buyer = await buyerForOneOrder();
    const older = await checkout(buyer);
    const newer = await checkout(buyer);
    expect([await outcome(older.body.checkout_id!), await outcome(newer.body.checkout_id!)]).toEqual([
      { status: 'awaiting_signature', code: undefined },
      { status: 'failed', code: 'TOP_UP_REQUIRED' },
    ]);
  });
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

// Last: the failing quotes leave the price book backing off from Fragment for a while.
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
    // Refused only after the price book was asked again for PRICE_BOOK_WAIT_MS: a quote missing for
    // a moment is no refusal.
    const retries = await h.database.pool.query<{ at: Date }>(
      `SELECT created_at AS at FROM purchase_events WHERE purchase_id = $1 AND reason = 'funds: the price book cannot price the order yet' ORDER BY created_at`,
      [created.id],
    );
    expect(retries.rowCount).toBeGreaterThanOrEqual(2);
    expect(row.completedAt!.getTime() - retries.rows[0]!.at.getTime()).toBeGreaterThanOrEqual(
      h.config.priceBookWaitMs - 500,
    );
  } finally {
    await fetch(`${h.sandbox.url}/admin/fragment/faults/reset`, { method: 'POST' });
  }
});
