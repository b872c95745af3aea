/**
 * The GRAM Fragment attaches to a USDT jetton transfer for gas (issue 35 §7): other clients allow
 * 0.3 to 0.6 GRAM, so with the default JETTON_GAS_ATTACH an order whose message carries 0.45 GRAM
 * completes (the old default, 0.1, refused it), and one over the setting is refused naming the amount.
 */
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ fragment: { usdtMessageTon: '0.45' } });
});

afterAll(async () => {
  await h?.close();
});

const usdtStars = (wallet: 'base64-v5r1' | 'ton24-v4r2') => ({
  product: 'stars' as const,
  username: '@alice',
  amount: 50,
  payment_method: 'usdt' as const,
  seed: h.wallet(wallet).seed,
});

test('a USDT order whose jetton message carries 0.45 GRAM completes with the default setting', async () => {
  const done = await h.waitFor((await h.createPurchase(usdtStars('base64-v5r1'))).id);
  expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
  expect(done.paymentRequest?.message.amount).toBe('450000000');
});

test('a jetton message over JETTON_GAS_ATTACH is refused before signing, naming the amount', async () => {
  h.sandbox.fragment!.configure({ usdtMessageTon: '0.75' });
  const done = await h.waitFor((await h.createPurchase(usdtStars('ton24-v4r2'))).id);
  expect({ status: done.status, error: done.error }).toMatchObject({
    status: 'failed',
    error: {
      code: 'PAYMENT_REJECTED_BY_POLICY',
      details: [
        {
          check: 'gas_attach',
          message: expect.stringMatching(/attaches 0\.75 GRAM .*JETTON_GAS_ATTACH \(0\.6 GRAM\)/),
        },
      ],
    },
  });
  expect(done.transactionHash).toBeNull();
});
