/**
 * A worker SIGKILLed right after it accepted a checkout's payment found on chain (stored as the
 * checkout's signed external, status `submitted`) and before confirming it with Fragment: the
 * restarted worker confirms once and completes the checkout, paid once, delivered once.
 */
import { CHECKOUT_CRASH_POINTS } from '../src/purchases/crash-points';
import { CheckoutBuyer } from './support/checkout-buyer';
import { post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { CRASH_TEST_ENV, exitWithin, WorkerFleet } from './support/worker-process';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(240_000);

let h: WorkerHarness;
let gw: CheckoutGateway;
const fleet = new WorkerFleet(() => h.env);

beforeAll(async () => {
  h = await WorkerHarness.start({ worker: false, env: CRASH_TEST_ENV });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await fleet.killAll();
  await gw?.close();
  await h?.close();
});

test.each(CHECKOUT_CRASH_POINTS.map((point) => [point]))(
  'SIGKILL at %s: no second confirm, still completed, paid once',
  async (point) => {
    const buyer = await CheckoutBuyer.create(h);
    const created = await post(gw.app, '/api/v1/checkouts', {
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      payer_address: buyer.address.toString(),
      idempotency_key: `crash-${point}`,
    });
    const id = created.body.checkout_id!;
    const doomed = fleet.start({ STARSGATE_CRASH_AT: point });
    const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature'], 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\nworker stderr: ${doomed.stderr()}`);
    });
    const confirmsBefore = h.sandbox.fragment!.stats().calls.confirmReq ?? 0;
    // The wallet broadcasts by itself; the doomed worker's chain watch finds and accepts the payment.
    await buyer.broadcast(await buyer.sign(prepared.transaction!));
    const exit = await exitWithin(doomed, 60_000);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    const afterCrash = await h.find(id);
    expect(afterCrash.status).toBe('submitted');
    expect(afterCrash.normalizedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(h.sandbox.fragment!.stats().calls.confirmReq ?? 0).toBe(confirmsBefore);

    const worker = fleet.start();
    const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'reconciliation_required'], 120_000);
    await worker.kill('SIGTERM');
    expect(done.status).toBe('completed');
    expect(h.sandbox.fragment!.stats().calls.confirmReq).toBe(confirmsBefore + 1);
    const row = await h.find(id);
    expect(h.deliveredCount(row.fragmentRef)).toBe(1);
    expect(h.paymentsByRef(buyer.address.toRawString()).get(row.fragmentRef!)).toBe(1);
    const events = await h.purchases.events(id);
    expect(events.filter((e) => e.toStatus === 'submitted' && e.fromStatus === 'awaiting_signature')).toHaveLength(1);
  },
);
