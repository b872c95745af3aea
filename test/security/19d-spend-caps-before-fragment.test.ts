/**
 * Attack 19d (docs/security.md): spend caps were checked only after the Fragment order, so a GRAM
 * top-up of 1,000,000 against a 100 GRAM cap created a Fragment invoice on the operator's login
 * before it failed. Now the caps are judged before any Fragment call: the GRAM top-up is priced at
 * its amount; Stars and Premium by the price book's quote. Funded wallets, so only the cap refuses.
 */
import { WorkerHarness } from '@starsgate/worker/testing';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { MAX_SPEND_GRAM: '100', MAX_SPEND_USDT: '5' } });
});

afterAll(async () => {
  await h?.close();
});

/** Calls of a purchase's order flow (search, init, link) the simulator has answered. */
function orderCalls(): number {
  const calls = h.sandbox.fragment!.stats().calls;
  return [
    'searchAdsTopupRecipient',
    'initAdsTopupRequest',
    'getAdsTopupLink',
    'searchStarsRecipient',
    'initBuyStarsRequest',
    'getBuyStarsLink',
  ].reduce((sum, method) => sum + (calls[method] ?? 0), 0);
}

test.each([150, 1_000_000])(
  'a %i GRAM top-up against a 100 GRAM cap fails PAYMENT_REJECTED_BY_POLICY before Fragment is asked',
  async (gram) => {
    const before = orderCalls();
    const done = await h.waitFor(
      (
        await h.createPurchase({
          product: 'gram',
          username: '@alice',
          amount: gram,
          payment_method: 'gram',
          seed: h.wallet('base64-v5r1').seed,
        })
      ).id,
    );
    expect({ status: done.status, error: done.error }).toMatchObject({
      status: 'failed',
      error: {
        code: 'PAYMENT_REJECTED_BY_POLICY',
        details: [
          {
            check: 'spend_cap',
            message: expect.stringMatching(new RegExp(`at least ${gram} GRAM .* MAX_SPEND_GRAM \\(100 GRAM\\)`)),
          },
        ],
      },
    });
    expect(done.fragmentReqId).toBeNull();
    expect(orderCalls()).toBe(before);
  },
);

test('Stars in USDT over MAX_SPEND_USDT by the price book fail before the search', async () => {
  const before = orderCalls();
  const done = await h.waitFor(
    (
      await h.createPurchase({
        product: 'stars',
        username: '@alice',
        amount: 5000,
        payment_method: 'usdt',
        seed: h.wallet('base64-v5r1').seed,
      })
    ).id,
  );
  expect({ status: done.status, error: done.error }).toMatchObject({
    status: 'failed',
    error: { code: 'PAYMENT_REJECTED_BY_POLICY', details: [{ check: 'spend_cap' }] },
  });
  expect(orderCalls()).toBe(before);
});

test('a top-up within the cap still completes', async () => {
  const done = await h.waitFor(
    (
      await h.createPurchase({
        product: 'gram',
        username: '@alice',
        amount: 100,
        payment_method: 'gram',
        seed: h.wallet('ton24-v4r2').seed,
      })
    ).id,
  );
  expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
});
