/**
 * Attack 7 (docs/security.md): a paid checkout must not end `expired` because its payment is
 * buried under newer transactions. The buyer's wallet pays while the worker is away (a delayed
 * worker), then anyone sends the payer 20 dust transfers; the worker comes back after the
 * checkout's deadline. The chain watch used to read only the payer's 16 newest transactions and
 * settled `expired` (the shop then asks the buyer to pay again); it now pages back to the
 * checkout's start and completes it. A late /submitted of a payment that ran in time moves an
 * already `expired` checkout on.
 */
import { Address } from '@ton/core';
import {
  CheckoutBuyer,
  post,
  startCheckoutGateway,
  waitForCheckout,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';

jest.setTimeout(180_000);

const DUST_TRANSFERS = 20;
let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start({ fragment: { validitySeconds: 20 }, env: { VALID_UNTIL_MARGIN_MS: '1000' } });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

async function preparedCheckout(buyer: CheckoutBuyer) {
  const created = await post(gw.app, '/api/v1/checkouts', {
    username: '@alice',
    payer_address: buyer.address.toString(),
    idempotency_key: crypto.randomUUID(),
    product: 'stars',
    amount: 50,
    payment_method: 'gram',
  });
  expect(created.status).toBe(202);
  const prepared = await waitForCheckout(gw.app, created.body.checkout_id!, ['awaiting_signature', 'failed']);
  expect({ status: prepared.status, error: prepared.error }).toEqual({
    status: 'awaiting_signature',
    error: undefined,
  });
  return { id: created.body.checkout_id!, transaction: prepared.transaction! };
}

/** Anyone can send a wallet dust: each transfer is one more transaction of the payer. */
async function buryUnderDust(payer: Address): Promise<void> {
  const before = h.sandbox.chain.transactionIndex.list(payer.toRawString(), { limit: 1_000_000 }).length;
  for (let i = 0; i < DUST_TRANSFERS; i += 1) await h.sandbox.chain.fund(payer, { gram: 1_000n });
  const deadline = Date.now() + 60_000;
  while (
    h.sandbox.chain.transactionIndex.list(payer.toRawString(), { limit: 1_000_000 }).length <
    before + DUST_TRANSFERS
  ) {
    if (Date.now() > deadline) throw new Error('the dust transfers did not land');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function pastDeadline(validUntil: number): Promise<void> {
  const wait = validUntil * 1000 + 1000 + 500 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

test('a payment buried under 20 dust transfers while the worker was away: completed, not expired', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const { id, transaction } = await preparedCheckout(buyer);
  await h.stopWorker();
  const seqno = await buyer.seqno();
  await buyer.broadcast(await buyer.sign(transaction));
  await buyer.waitForSeqno(seqno + 1);
  await buryUnderDust(buyer.address);
  await pastDeadline(transaction.validUntil);

  h.startWorker();
  const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'expired', 'reconciliation_required']);
  expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: undefined });
  const row = await h.find(id);
  expect(h.paymentsByRef(buyer.address.toRawString()).get(row.fragmentRef!)).toBe(1);
  expect(h.deliveredCount(row.fragmentRef)).toBe(1);
});

test('a late /submitted of a payment that ran before valid_until moves an expired checkout on', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const { id, transaction } = await preparedCheckout(buyer);
  await h.stopWorker();
  const boc = await buyer.sign(transaction);
  const seqno = await buyer.seqno();
  await buyer.broadcast(boc);
  await buyer.waitForSeqno(seqno + 1);
  // A checkout the old watch settled `expired` although its payment ran (the rows attack 7 left
  // behind, or a provider that had not indexed the payment yet): the verdict a late /submitted corrects.
  await h.database.pool.query(
    `UPDATE purchases SET status = 'expired', completed_at = now(), error = '{"code":"CHECKOUT_EXPIRED"}'::jsonb WHERE id = $1`,
    [id],
  );
  await pastDeadline(transaction.validUntil);

  const late = await post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc });
  expect({ status: late.status, checkout: late.body.status }).toEqual({ status: 202, checkout: 'submitted' });
  h.startWorker();
  const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'expired', 'reconciliation_required']);
  expect(done.status).toBe('completed');
  const events = await h.purchases.events(id);
  expect(events.map((e) => [e.fromStatus, e.toStatus, e.actor])).toContainEqual(['expired', 'submitted', 'gateway']);
});
