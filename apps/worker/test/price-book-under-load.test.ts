/**
 * Why `bench:pipeline` failed 40 % of its purchases PRICES_UNAVAILABLE: every Stars count is its own
 * Fragment quote, taken from the reads' global budget (60 a minute). A burst of purchases for many
 * counts spent it; the price book then had no stored quote, no list to derive from (nothing had
 * fetched one), and the funds pre-check's five tries (about 1.5 s here, the budget's window a
 * minute) all failed. Now the book fetches the list outside the budget and derives the count, and
 * `preparing` asks again for PRICE_BOOK_WAIT_MS by the clock before it refuses an order.
 */
import { ReadLimiter } from '@starsgate/fragment';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { PRICE_BOOK_WAIT_MS: '5000' } });
});

afterAll(async () => {
  await h?.close();
});

function order(amount: number): PurchaseInput {
  return { product: 'stars', username: '@alice', amount, payment_method: 'gram', seed: h.wallet('base64-v5r1').seed };
}

async function fragmentOrders(): Promise<number> {
  return ((await (await fetch(`${h.sandbox.url}/admin/fragment/orders`)).json()) as unknown[]).length;
}

/** The harness's price book: its Redis prefix and the default read budgets of createFragmentReads. */
function readLimiter(): ReadLimiter {
  return new ReadLimiter({
    redis: h.redis,
    prefix: `${h.bullPrefix}:reads:`,
    global: { max: 60, windowMs: 60_000 },
    perScope: { max: 6, windowMs: 60_000 },
  });
}

test('the read budget spent and no list stored: the count is derived from a list fetched now, and the purchase completes', async () => {
  expect(await h.redis.exists(`${h.bullPrefix}:reads:prices:list`)).toBe(0);
  const limiter = readLimiter();
  // Spend the global budget as a burst of purchases for other counts would.
  for (;;) {
    try {
      await limiter.acquire();
    } catch (error) {
      expect((error as { reason?: string }).reason).toBe('global_budget');
      break;
    }
  }

  const row = await h.waitFor((await h.createPurchase(order(433))).id);
  expect({ status: row.status, error: row.error }).toEqual({ status: 'completed', error: null });
  expect(await h.redis.exists(`${h.bullPrefix}:reads:prices:list`)).toBe(1);
  const quote = await h.deps.prices.quote('stars', 433);
  expect({ stale: quote.stale, derived: quote.derived }).toEqual({ stale: true, derived: true });
  // Still nothing left of the budget: the list was fetched outside it, the count was never quoted.
  await expect(limiter.acquire()).rejects.toMatchObject({ reason: 'global_budget' });
});

test('a price book that cannot answer is asked again for PRICE_BOOK_WAIT_MS by the clock, then PRICES_UNAVAILABLE; Fragment made no order', async () => {
  // Fragment quotes no Stars (neither this count nor the list's 50), and nothing is stored for this count.
  await h.redis.del(`${h.bullPrefix}:reads:prices:list`);
  h.sandbox.fragment!.configure({ faults: { methods: { updateStarsPrices: { errorRate: 1 } } } });
  try {
    const before = await fragmentOrders();
    const created = await h.createPurchase(order(611));
    const row = await h.waitFor(created.id, ['failed', 'sending', 'submitted', 'confirming', 'completed']);
    expect({ status: row.status, code: (row.error as { code?: string } | null)?.code }).toEqual({
      status: 'failed',
      code: 'PRICES_UNAVAILABLE',
    });
    expect(row.fragmentReqId).toBeNull();
    expect(await fragmentOrders()).toBe(before);
    // Five tries of the step's backoff (200 ms doubling to a 1 s cap, with jitter: at most 2.4 s)
    // were no measure of time: the refusal comes only once the book failed for the whole span.
    const events = await h.database.pool.query<{ reason: string; at: Date }>(
      `SELECT reason, created_at AS at FROM purchase_events WHERE purchase_id = $1 ORDER BY created_at`,
      [created.id],
    );
    const asked = events.rows.filter((e) => e.reason === 'funds: the price book cannot price the order yet');
    const refused = events.rows.find((e) => e.reason === 'no price book; Fragment was not asked');
    expect(asked.length).toBeGreaterThanOrEqual(5);
    expect(refused).toBeDefined();
    expect(refused!.at.getTime() - asked[0]!.at.getTime()).toBeGreaterThanOrEqual(5_000 - 1_000);
  } finally {
    await fetch(`${h.sandbox.url}/admin/fragment/faults/reset`, { method: 'POST' });
  }
});
