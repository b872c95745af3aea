/**
 * Premium giveaway (`product: "premium_giveaway"`) end to end: intake through the real gateway,
 * the worker driving the simulator's `/premium/giveaway` flow (search with winners and months,
 * the months priced by updatePremiumGiveawayPrices, init, link, confirm) and paying from a demo
 * wallet on the local chain. Delivery is believed only from a history row showing the order's
 * Ref# (docs/fragment-protocol.md §22): without one the purchase ends reconciliation_required.
 */
import { decodeCommentPayload } from '@starsgate/fragment';
import { CheckoutBuyer } from './support/checkout-buyer';
import { post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { CONFIRMING_MAX_AGE_MS: '4000' } });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

function giveaway(overrides: Partial<PurchaseInput> = {}): PurchaseInput {
  return {
    product: 'premium_giveaway',
    username: '@starsgate_channel',
    winners: 2,
    months: 3,
    payment_method: 'gram',
    seed: h.wallet('base64-v5r1').seed,
    ...overrides,
  };
}

test('with the Ref# in the history row, a giveaway for 2 winners × 3 months completes, paid once with its comment', async () => {
  h.sandbox.fragment!.configure({ faults: { historyShowsRef: true } });
  try {
    const created = await h.createPurchase(giveaway());
    expect(created.amount).toBe(2);
    expect(created.orderLine).toEqual({
      product: 'premium_giveaway',
      recipient: '@starsgate_channel',
      quantities: { winners: 2, months: 3 },
    });
    const done = await h.waitFor(created.id);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    const request = done.paymentRequest as { currency: string; message: { payload: string } };
    expect(request.currency).toBe('GRAM');
    const comment = decodeCommentPayload(request.message.payload);
    expect(comment).toMatchObject({ ref: done.fragmentRef, product: 'premium_giveaway', quantity: 2 });
    expect(comment.text.startsWith('Prepaid Subscription')).toBe(true);
  } finally {
    h.sandbox.fragment!.configure({ faults: { historyShowsRef: false } });
  }
});

test('a history row without the Ref# never completes a giveaway: it ends reconciliation_required', async () => {
  const done = await h.waitFor((await h.createPurchase(giveaway({ winners: 3, months: 6 }))).id);
  expect(done.status).toBe('reconciliation_required');
});

test('a user as the giveaway recipient is refused: RECIPIENT_INELIGIBLE, nothing paid', async () => {
  const done = await h.waitFor((await h.createPurchase(giveaway({ username: '@alice' }))).id);
  expect(done.status).toBe('failed');
  expect((done.error as { code: string }).code).toBe('RECIPIENT_INELIGIBLE');
  expect(done.transactionHash).toBeNull();
});

test("a giveaway checkout in USDT: prepared for the buyer's wallet, signed, submitted, completed with its Ref# row", async () => {
  h.sandbox.fragment!.configure({ faults: { historyShowsRef: true } });
  try {
    const buyer = await CheckoutBuyer.create(h, { version: 'V5R1' });
    const res = await post(gw.app, '/api/v1/checkouts', {
      product: 'premium_giveaway',
      username: '@starsgate_giveaways',
      winners: 3,
      months: 12,
      payment_method: 'usdt',
      payer_address: buyer.address.toString(),
      idempotency_key: 'giveaway-checkout-1',
    });
    expect(res.status).toBe(202);
    const id = res.body.checkout_id as string;
    const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
    expect(prepared).toMatchObject({
      status: 'awaiting_signature',
      product: 'premium_giveaway',
      amount: 3,
      quantities: { winners: 3, months: 12 },
    });
    expect(Object.keys(prepared.prices!)).toEqual(['usdt']);
    const boc = await buyer.sign(prepared.transaction!);
    expect((await post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc })).status).toBe(202);
    const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'expired', 'reconciliation_required']);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: undefined });
  } finally {
    h.sandbox.fragment!.configure({ faults: { historyShowsRef: false } });
  }
});
