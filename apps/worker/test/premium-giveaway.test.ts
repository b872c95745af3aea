/**
 * Premium giveaway (`product: "premium_giveaway"`) end to end: intake through the real gateway,
 * the worker driving the simulator's `/premium/giveaway` flow (search with winners and months,
 * the months priced by updatePremiumGiveawayPrices, init, link, confirm) and paying from a demo
 * wallet on the local chain. Delivery is believed only from a history row showing the order's
 * Ref# (docs/fragment-protocol.md §22): without one the purchase ends reconciliation_required.
 */
import { decodeCommentPayload } from '@starsgate/fragment';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { CONFIRMING_MAX_AGE_MS: '4000' } });
});

afterAll(async () => {
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
