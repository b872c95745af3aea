/**
 * A checkout waiting for its buyer's payment costs nothing while it waits (issue 37): its row is
 * parked until its deadline and only the checkout watch's shared look per payer wallet wakes it.
 * On the sandbox with real PostgreSQL, Redis and chain: the row's version and its BullMQ jobs do
 * not move while the buyer has not paid, and a payment the wallet broadcasts by itself is found by
 * the look, accepted and the checkout completed.
 */
import { waitFor } from '@starsgate/platform/testing';
import { CheckoutBuyer } from './support/checkout-buyer';
import { post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start({
    env: { POLL_INTERVAL_MS: '150', WAIT_LOOK_MAX_MS: '1000', CONFIRMING_MAX_AGE_MS: '60000' },
  });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

async function jobIdsOf(id: string): Promise<string[]> {
  const jobs = await h.queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
  return jobs
    .filter((job) => job.data.purchaseId === id)
    .map((job) => job.id!)
    .sort();
}

test('a checkout nobody has paid is not written and gets no job; the payment the look finds completes it', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const created = await post(gw.app, '/api/v1/checkouts', {
    username: '@alice',
    payer_address: buyer.address.toString(),
    idempotency_key: 'watched-checkout',
    product: 'stars',
    amount: 70,
    payment_method: 'gram',
  });
  const id = created.body.checkout_id!;
  const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
  expect(prepared.status).toBe('awaiting_signature');
  const parked = await waitFor(
    async () => {
      const row = await h.find(id);
      // Its first look ran and released it, due at its deadline.
      return row.leaseOwner === null && row.nextRunAt.getTime() > Date.now() + 10_000 ? row : undefined;
    },
    { timeoutMs: 20_000, intervalMs: 20, what: 'the checkout to park until its deadline' },
  );
  const jobsBefore = await jobIdsOf(id);

  await new Promise((resolve) => setTimeout(resolve, 2_500));
  const waited = await h.find(id);
  expect(waited.status).toBe('awaiting_signature');
  expect(waited.version).toBe(parked.version);
  expect(waited.workedAt.getTime()).toBe(parked.workedAt.getTime());
  expect(await jobIdsOf(id)).toEqual(jobsBefore);

  await buyer.broadcast(await buyer.sign(prepared.transaction!));
  const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'expired', 'reconciliation_required']);
  expect(done.status).toBe('completed');
  const accepted = (await h.purchases.events(id)).find((event) => event.toStatus === 'submitted')!;
  expect(accepted.reason).toBe('payment found on chain without a submitted BOC');
  expect(accepted.actor).toContain(':checkout-watch:');
  expect(accepted.version).toBe(parked.version + 1);
});

test('one look at an account completes a purchase and a checkout together (one statement per mode)', async () => {
  h.sandbox.fragment!.configure({ doneDelay: { minMs: 1_500, maxMs: 1_500 } });
  try {
    // Nobody looks while both wait: the one pass below answers both.
    await h.deps.deliveryWatch!.stop();
    const buyer = await CheckoutBuyer.create(h);
    const created = await post(gw.app, '/api/v1/checkouts', {
      username: '@alice',
      payer_address: buyer.address.toString(),
      idempotency_key: 'mixed-look',
      product: 'stars',
      amount: 71,
      payment_method: 'gram',
    });
    const checkoutId = created.body.checkout_id!;
    const prepared = await waitForCheckout(gw.app, checkoutId, ['awaiting_signature', 'failed']);
    const boc = await buyer.sign(prepared.transaction!);
    expect((await post(gw.app, `/api/v1/checkouts/${checkoutId}/submitted`, { boc })).status).toBe(202);
    const purchase = await h.createPurchase({
      product: 'stars',
      amount: 72,
      payment_method: 'gram',
      username: '@alice',
      seed: h.wallet('bip39-0').seed,
      wallet_address: h.wallet('bip39-0').address,
    });
    const ids = [checkoutId, purchase.id];
    await waitFor(
      async () => {
        const rows = await h.deps.transitions.findMany(ids);
        return rows.every((row) => row.status === 'confirming' && row.transactionHash !== null && !row.leaseOwner)
          ? rows
          : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 20, what: 'both to park for their deliveries' },
    );
    // Fragment delivers both meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const pass = await h.deps.deliveryWatch!.pass();
    expect(pass).toEqual({ looked: 1, moved: 2 });
    const done = await h.deps.transitions.findMany(ids);
    expect(done.map((row) => [row.mode, row.status]).sort()).toEqual([
      ['client_signed', 'completed'],
      ['server_signed', 'completed'],
    ]);
  } finally {
    h.deps.deliveryWatch!.start();
  }
});
