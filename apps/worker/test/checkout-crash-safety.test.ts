/**
 * A worker SIGKILLed right after it accepted a checkout's payment found on chain (stored as the
 * checkout's signed external, status `submitted`) and before confirming it with Fragment: the
 * restarted worker confirms once and completes the checkout, paid once, delivered once.
 */
import { CHECKOUT_CRASH_POINTS } from '../src/purchases/state-machine/crash-points';
import { CheckoutBuyer } from './support/checkout-buyer';
import { post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { spawnWorker, type WorkerProcess } from './support/worker-process';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(240_000);

let h: WorkerHarness;
let gw: CheckoutGateway;
const running: WorkerProcess[] = [];

beforeAll(async () => {
  h = await WorkerHarness.start({
    worker: false,
    env: { LEASE_MS: '3000', JOB_LOCK_MS: '3000', SWEEP_INTERVAL_MS: '300', CONFIRMING_MAX_AGE_MS: '60000' },
  });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await Promise.all(running.map((w) => w.kill('SIGKILL')));
  await gw?.close();
  await h?.close();
});

function start(env: Record<string, string> = {}): WorkerProcess {
  const worker = spawnWorker({ ...h.env, ...env });
  running.push(worker);
  return worker;
}

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
    const doomed = start({ STARSGATE_CRASH_AT: point });
    const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature'], 30_000).catch((error: Error) => {
      throw new Error(`${error.message}\nworker stderr: ${doomed.stderr()}`);
    });
    const confirmsBefore = h.sandbox.fragment!.stats().calls.confirmReq ?? 0;
    // The wallet broadcasts by itself; the doomed worker's chain watch finds and accepts the payment.
    await buyer.broadcast(await buyer.sign(prepared.transaction!));
    let timer: NodeJS.Timeout | undefined;
    const exit = await Promise.race([
      doomed.exited,
      new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), 60_000))),
    ]);
    clearTimeout(timer);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    const afterCrash = await h.find(id);
    expect(afterCrash.status).toBe('submitted');
    expect(afterCrash.normalizedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(h.sandbox.fragment!.stats().calls.confirmReq ?? 0).toBe(confirmsBefore);

    const worker = start();
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
