/**
 * Attack 4 (docs/security.md): anyone spent the operator's Fragment login. The worker created a
 * real Fragment order (search, init, link) before it checked the payer's funds, so a random Base64
 * key (no funds, no key-derivation cost) or a checkout naming any public wallet made orders on the
 * operator's KYC'd account at will. The payer's balances are now checked against the price book
 * first: `failed TOP_UP_REQUIRED` with the exact shortfall, and the Fragment simulator sees no
 * search, no order and no link for it.
 */
import { randomBytes } from 'node:crypto';
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
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start();
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

/** What the operator's Fragment account was asked to do that creates or links an order. */
async function orderTraffic(): Promise<{ orders: number; orderCalls: number }> {
  const orders = (await (await fetch(`${h.sandbox.url}/admin/fragment/orders`)).json()) as unknown[];
  const { calls } = (await (await fetch(`${h.sandbox.url}/admin/fragment/stats`)).json()) as {
    calls: Record<string, number>;
  };
  const orderCalls = Object.entries(calls)
    .filter(([method]) => /^(search|init)|Link$|^getBuy|^getGift|Transaction/i.test(method))
    .reduce((sum, [, n]) => sum + n, 0);
  return { orders: orders.length, orderCalls };
}

function expectShortfall(details: Array<Record<string, string>>, currency: 'GRAM' | 'USDT', available: bigint) {
  const line = details.find((d) => d.currency === currency)!;
  const decimals = currency === 'GRAM' ? GRAM_DECIMALS : 6;
  expect(parseUnits(line.available!, decimals)).toBe(available);
  expect(parseUnits(line.shortfall!, decimals)).toBe(
    parseUnits(line.required!, decimals) - parseUnits(line.available!, decimals),
  );
  expect(parseUnits(line.shortfall!, decimals)).toBeGreaterThan(0n);
}

test('a random Base64 key with no funds: TOP_UP_REQUIRED, and Fragment was never asked for an order', async () => {
  const before = await orderTraffic();
  const seed = randomBytes(32).toString('base64');
  const created = await h.createPurchase({
    product: 'stars',
    username: '@dave',
    amount: 500,
    payment_method: 'gram',
    seed,
  });
  const row = await h.waitFor(created.id, ['failed', 'sending', 'submitted', 'confirming', 'completed']);
  expect({ status: row.status, code: (row.error as { code: string }).code }).toEqual({
    status: 'failed',
    code: 'TOP_UP_REQUIRED',
  });
  expectShortfall((row.error as { details: Array<Record<string, string>> }).details, 'GRAM', 0n);
  expect(row.fragmentReqId).toBeNull();
  expect(await orderTraffic()).toEqual(before);
});

test('a checkout naming a wallet without USDT: TOP_UP_REQUIRED, and Fragment was never asked for an order', async () => {
  const buyer = await CheckoutBuyer.create(h, { gram: 1_000_000_000n, usdt: 0n });
  const before = await orderTraffic();
  const res = await post(gw.app, '/api/v1/checkouts', {
    username: '@alice',
    payer_address: buyer.address.toString(),
    idempotency_key: crypto.randomUUID(),
    product: 'stars',
    amount: 500,
    payment_method: 'usdt',
  });
  expect(res.status).toBe(202);
  const failed = await waitForCheckout(gw.app, res.body.checkout_id!, ['failed', 'awaiting_signature']);
  const error = failed.error as { code: string; details: Array<Record<string, string>> };
  expect({ status: failed.status, code: error.code }).toEqual({ status: 'failed', code: 'TOP_UP_REQUIRED' });
  expectShortfall(error.details, 'USDT', 0n);
  expect(await orderTraffic()).toEqual(before);
});

describe('open unpaid orders are capped at intake', () => {
  let capped: CheckoutGateway;

  beforeAll(() => {
    capped = startCheckoutGateway(h, { OPEN_ORDERS_PER_PAYER: '2', OPEN_ORDERS_RETRY_AFTER_SECONDS: '17' });
  });

  afterAll(async () => {
    await capped?.close();
  });

  const checkout = (app: CheckoutGateway['app'], payer: CheckoutBuyer, key: string = crypto.randomUUID()) =>
    post(app, '/api/v1/checkouts', {
      username: '@alice',
      payer_address: payer.address.toString(),
      idempotency_key: key,
      product: 'stars',
      amount: 50,
      payment_method: 'gram',
    });

  test('past the per-payer cap: 429 OPEN_ORDERS_LIMIT_REACHED with retry_after; replays and other payers still pass', async () => {
    const payer = await CheckoutBuyer.create(h);
    const first = await checkout(capped.app, payer);
    expect(first.status).toBe(202);
    expect((await checkout(capped.app, payer)).status).toBe(202);
    const before = (await h.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases')).rows[0]!.n;

    const refused = await checkout(capped.app, payer);
    expect({ status: refused.status, code: refused.body.code, retryAfter: refused.headers['retry-after'] }).toEqual({
      status: 429,
      code: 'OPEN_ORDERS_LIMIT_REACHED',
      retryAfter: '17',
    });
    expect(refused.body.retry_after).toBe(17);
    expect(refused.body.details![0]!.field).toBe('payer_address');
    expect((await h.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM purchases')).rows[0]!.n).toBe(
      before,
    );

    // A replay creates nothing and is answered; another payer has its own allowance.
    const firstKey = (await h.find(first.body.checkout_id!)).idempotencyKey;
    const replay = await checkout(capped.app, payer, firstKey);
    expect({ status: replay.status, id: replay.body.checkout_id }).toEqual({
      status: 202,
      id: first.body.checkout_id,
    });
    expect((await checkout(capped.app, await CheckoutBuyer.create(h))).status).toBe(202);
  });

  test('past the total cap: 429 for any payer', async () => {
    const full = startCheckoutGateway(h, { OPEN_ORDERS_TOTAL: '1' });
    try {
      // The orders of the test above are still open.
      const refused = await checkout(full.app, await CheckoutBuyer.create(h));
      expect({ status: refused.status, code: refused.body.code }).toEqual({
        status: 429,
        code: 'OPEN_ORDERS_LIMIT_REACHED',
      });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await full.close();
    }
  });
});
