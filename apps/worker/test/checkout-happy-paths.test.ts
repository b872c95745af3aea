/**
 * Client-signed checkouts end to end on the sandbox: the gateway takes the order, the worker
 * prepares the Fragment order and the TON Connect transaction, the test plays the buyer's wallet
 * with @ton/ton, and the checkout ends `completed` with exactly one payment and one delivery.
 */
import { Address } from '@ton/core';
import { assertWorkerMove, parseUnits, USDT_DECIMALS } from '@starsgate/domain';
import { CheckoutBuyer } from './support/checkout-buyer';
import { post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start();
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

let keyCounter = 0;

async function createCheckout(
  buyer: CheckoutBuyer,
  order: Record<string, unknown>,
  extra: Record<string, unknown> = {},
) {
  keyCounter += 1;
  const res = await post(gw.app, '/api/v1/checkouts', {
    username: '@alice',
    payer_address: buyer.address.toString(),
    idempotency_key: `co-${keyCounter}`,
    ...order,
    ...extra,
  });
  expect(res.status).toBe(202);
  expect(res.body.checkout_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(res.body).toEqual({
    checkout_id: res.body.checkout_id,
    status: 'preparing',
    status_url: `/api/v1/checkouts/${res.body.checkout_id}`,
  });
  return res.body.checkout_id!;
}

async function expectCompletedOnce(id: string, buyer: CheckoutBuyer, expectedPath: string[]) {
  const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'expired', 'reconciliation_required']);
  expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: undefined });
  expect(done.transaction_hash).toMatch(/^[0-9a-f]{64}$/);
  const row = await h.find(id);
  expect(row.mode).toBe('client_signed');
  expect(h.transactionExists(buyer.address.toRawString(), row.transactionHash!)).toBe(true);
  expect(h.deliveredCount(row.fragmentRef)).toBe(1);
  expect(h.paymentsByRef(buyer.address.toRawString()).get(row.fragmentRef!)).toBe(1);
  const events = await h.purchases.events(id);
  const path = events.map((e) => e.toStatus).filter((status, i, all) => i === 0 || status !== all[i - 1]);
  expect(path).toEqual(expectedPath);
  // Every recorded move is one the domain's client-signed lifecycle has.
  for (const event of events.filter((e) => e.fromStatus !== null && e.fromStatus !== e.toStatus))
    expect(() => assertWorkerMove(event.fromStatus!, event.toStatus, 'client_signed')).not.toThrow();
  // No secret was ever stored for a checkout.
  const secrets = await h.database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM wallet_secrets WHERE purchase_id = $1',
    [id],
  );
  expect(secrets.rows[0]!.n).toBe(0);
}

const SUBMITTED_PATH = ['preparing', 'awaiting_signature', 'submitted', 'confirming', 'completed'];

// docs/fragment-protocol.md §17: whether Fragment names the wallet linked to its account (linked,
// the simulator's default) or the buyer (echo), the TON Connect request names the buyer.
describe.each(['linked', 'echo'] as const)('%s mode', (mode) => {
  beforeAll(() => h.sandbox.fragment!.configure({ faults: { transactionFrom: mode } }));
  afterAll(() => h.sandbox.fragment!.configure({ faults: { transactionFrom: 'linked' } }));

  test.each([
    {
      label: 'GRAM stars, V5R1 payer',
      order: { product: 'stars', amount: 50, payment_method: 'gram' },
      version: 'V5R1',
    },
    {
      label: 'USDT stars, V5R1 payer',
      order: { product: 'stars', amount: 100, payment_method: 'usdt' },
      version: 'V5R1',
    },
    {
      label: 'GRAM premium, V4R2 payer',
      order: { product: 'premium', amount: 3, payment_method: 'gram' },
      version: 'V4R2',
    },
    {
      label: 'USDT premium, V4R2 payer',
      order: { product: 'premium', amount: 6, payment_method: 'usdt' },
      version: 'V4R2',
    },
    {
      label: 'GRAM top-up, V5R1 payer',
      order: { product: 'gram', amount: 2, payment_method: 'gram' },
      version: 'V5R1',
    },
  ] as const)('$label: signed in the wallet, submitted, completed with one delivery', async ({ order, version }) => {
    const buyer = await CheckoutBuyer.create(h, { version });
    const id = await createCheckout(buyer, order);
    const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
    expect(prepared.status).toBe('awaiting_signature');
    const transaction = prepared.transaction!;
    expect(transaction.from).toBe(buyer.address.toRawString());
    expect(transaction.network).toBe('-239');
    expect(transaction.messages).toHaveLength(1);
    expect(new Date(prepared.valid_until as string).getTime()).toBe(transaction.validUntil * 1000);
    const row = await h.find(id);
    const paymentRequest = row.paymentRequest as {
      fragmentFrom: string;
      jetton?: { jettonWallet: string; amount: string };
      message: { amount: string };
    };
    expect(paymentRequest.fragmentFrom).toBe(
      mode === 'linked' ? h.sandbox.fragment!.linkedWallet.address.toRawString() : buyer.address.toRawString(),
    );
    const destination = Address.parseFriendly(transaction.messages[0]!.address);
    if (order.payment_method === 'usdt') {
      // The payer's own jetton wallet, bounceable, carrying Fragment's TEP-74 transfer and GRAM for forwarding.
      const jettonWallet = await h.chain.getJettonWalletAddress(
        Address.parse(h.env.USDT_MASTER_ADDRESS!),
        buyer.address,
      );
      expect(destination.address.equals(jettonWallet)).toBe(true);
      expect(destination.isBounceable).toBe(true);
      expect(BigInt(transaction.messages[0]!.amount)).toBeGreaterThan(0n);
      expect(Object.keys(prepared.prices!)).toEqual(['usdt']);
      expect(prepared.prices!.usdt).toMatch(/^\d+(\.\d{1,6})?$/);
      expect(parseUnits((prepared.prices as { usdt: string }).usdt, USDT_DECIMALS)).toBe(
        BigInt(paymentRequest.jetton!.amount),
      );
    } else {
      const receivers = h.sandbox.fragment!.receivingAddresses;
      expect([receivers.stars.toRawString(), receivers.premium.toRawString()]).toContain(
        destination.address.toRawString(),
      );
      expect(Object.keys(prepared.prices!)).toEqual(['gram']);
      expect(prepared.prices!.gram).toMatch(/^\d+(\.\d{1,9})?$/);
    }

    const boc = await buyer.sign(transaction);
    const submitted = await post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc });
    expect(submitted.status).toBe(202);
    expect(submitted.body.status).toBe('submitted');
    await expectCompletedOnce(id, buyer, SUBMITTED_PATH);
  });
});

test('an undeployed payer with payer_public_key and payer_state_init: its first transfer deploys it and pays', async () => {
  const buyer = await CheckoutBuyer.create(h, { deploy: false });
  const id = await createCheckout(
    buyer,
    { product: 'stars', amount: 60, payment_method: 'usdt' },
    { payer_public_key: buyer.account.publicKey, payer_state_init: buyer.account.walletStateInit },
  );
  const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
  expect(prepared.status).toBe('awaiting_signature');
  expect(await buyer.seqno()).toBe(0);
  const boc = await buyer.sign(prepared.transaction!);
  const submitted = await post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc });
  expect(submitted.status).toBe(202);
  await expectCompletedOnce(id, buyer, SUBMITTED_PATH);
  expect(await buyer.seqno()).toBe(1);
});

test('the wallet broadcasts by itself and /submitted is never called: the chain watch completes it', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const id = await createCheckout(buyer, { product: 'premium', amount: 12, payment_method: 'gram' });
  const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
  await buyer.broadcast(await buyer.sign(prepared.transaction!));
  await expectCompletedOnce(id, buyer, SUBMITTED_PATH);
  const accepted = (await h.purchases.events(id)).find((e) => e.toStatus === 'submitted');
  expect(accepted?.reason).toBe('payment found on chain without a submitted BOC');
});

test('the wallet broadcasts, the chain has it, then /submitted arrives: accepted (or replayed), paid once', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const id = await createCheckout(buyer, { product: 'stars', amount: 70, payment_method: 'gram' });
  const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
  const boc = await buyer.sign(prepared.transaction!);
  await buyer.broadcast(boc);
  await buyer.waitForSeqno(2);
  const submitted = await post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc });
  expect(submitted.status).toBe(202);
  await expectCompletedOnce(id, buyer, SUBMITTED_PATH);
});
