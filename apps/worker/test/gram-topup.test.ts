/**
 * GRAM top-up (`product: "gram"`) end to end: the worker drives the simulator's `/ads/topup` flow
 * (search with the query alone, init without a payment method, link, confirm, delivery) and pays
 * from a demo wallet on the local chain. docs/fragment-protocol.md §18.
 */
import { decodeCommentPayload } from '@starsgate/fragment';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  await h?.close();
});

function topup(overrides: Partial<PurchaseInput> = {}): PurchaseInput {
  return {
    product: 'gram',
    username: '@alice',
    amount: 3,
    payment_method: 'gram',
    seed: h.wallet('base64-v5r1').seed,
    ...overrides,
  };
}

interface SimulatorOrder {
  ref: string;
  product: string;
  username: string;
  quantity: number;
  paymentMethod: string;
  amount: string;
  status: string;
}

async function simulatorOrder(ref: string): Promise<SimulatorOrder | undefined> {
  const orders = (await (await fetch(`${h.sandbox.url}/admin/fragment/orders`)).json()) as SimulatorOrder[];
  return orders.find((order) => order.ref === ref);
}

// First in the file: the session has made no top-up call yet, so only our own state call opens its search.
test('with the simulator answering the search only after updateAdsTopupState {mode: "new"}, a top-up completes', async () => {
  h.sandbox.fragment!.configure({ faults: { topupSearchNeedsState: true } });
  try {
    const done = await h.waitFor((await h.createPurchase(topup({ amount: 4 }))).id);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
  } finally {
    h.sandbox.fragment!.configure({ faults: { topupSearchNeedsState: false } });
  }
});

test('a 3 GRAM top-up ends completed: exactly 3 GRAM paid once with the top-up comment, delivered once', async () => {
  const created = await h.createPurchase(topup());
  const done = await h.waitFor(created.id);
  expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });

  const request = done.paymentRequest as {
    currency: string;
    quote: string;
    message: { amount: string; payload: string };
  };
  expect(request.currency).toBe('GRAM');
  expect(request.quote).toBe('3000000000');
  expect(request.message.amount).toBe('3000000000');
  expect(decodeCommentPayload(request.message.payload)).toEqual({
    text: `Telegram account top up \n\nRef#${done.fragmentRef}`,
    ref: done.fragmentRef,
    product: 'gram',
  });

  // Fragment's side: a top-up order (init named no payment method, so GRAM), delivered once.
  expect(await simulatorOrder(done.fragmentRef!)).toMatchObject({
    product: 'gram',
    username: 'alice',
    quantity: 3,
    paymentMethod: 'ton',
    amount: '3',
    status: 'done',
  });
  expect(h.deliveredCount(done.fragmentRef)).toBe(1);
  expect(h.transactionExists(done.walletAddress!, done.transactionHash!)).toBe(true);
  expect(h.paymentsByRef(done.walletAddress!).get(done.fragmentRef!)).toBe(1);

  // The account's top-up history (`/ads/history?type=topup`) shows the delivery as the reader reads it.
  const history = await h.deps.fragment.clients[0]!.deliveryHistory('gram');
  expect(history.shape).toBe('listed');
  expect(history.rows).toContainEqual(expect.objectContaining({ recipient: 'alice', quantity: 3 }));

  const events = await h.purchases.events(done.id);
  const path = events.map((e) => e.toStatus).filter((status, i, all) => i === 0 || status !== all[i - 1]);
  expect(path).toEqual(['queued', 'preparing', 'sending', 'submitted', 'confirming', 'completed']);
});

test.each([
  ['a channel', '@news_channel'],
  ['a bot', '@helper_bot'],
])('a top-up for %s fails RECIPIENT_INELIGIBLE before anything is signed', async (_label, username) => {
  const done = await h.waitFor((await h.createPurchase(topup({ username }))).id);
  expect({ status: done.status, code: (done.error as { code?: string } | null)?.code }).toEqual({
    status: 'failed',
    code: 'RECIPIENT_INELIGIBLE',
  });
  expect(done.fragmentRef).toBeNull();
  expect(done.transactionHash).toBeNull();
});
