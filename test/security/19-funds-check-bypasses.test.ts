/**
 * Attack 19 (docs/security.md): the funds check before Fragment had ways around it.
 * (e) When the price book could not price the order, the check was skipped silently (and with
 * PRICES_REFRESH_ENABLED=false the worker had no price book at all): the order went to Fragment
 * unchecked. Now such a purchase ends `failed PRICES_UNAVAILABLE` and Fragment is not asked.
 */
import { WorkerHarness } from '@starsgate/worker/testing';

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
