/**
 * Attack 4 (docs/security-money.md): anyone spent the operator's Fragment login. The worker created a
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
