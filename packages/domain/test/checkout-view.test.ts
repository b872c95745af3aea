import { checkoutView, webhookEventOf, WEBHOOK_EVENT_TYPES, type CheckoutViewSource } from '../src';

const base: CheckoutViewSource = {
  id: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
  mode: 'client_signed',
  status: 'awaiting_signature',
  product: 'stars',
  username: '@alice',
  amount: 50,
  paymentMethod: 'usdt',
  walletAddress: '0:' + 'ab'.repeat(32),
  requestedWalletAddress: '0:' + 'ab'.repeat(32),
  checkoutTransaction: { validUntil: 1_800_000_000, network: '-239', from: '0:' + 'ab'.repeat(32), messages: [] },
  paymentRequest: { currency: 'USDT', message: { amount: '50000000' }, jetton: { amount: '750000' } },
  transactionHash: null,
  error: null,
  createdAt: new Date('2026-11-23T10:00:00Z'),
  updatedAt: new Date('2026-11-23T10:00:02Z'),
};

test('a prepared checkout shows the transaction, its deadline and what it pays, in its own currency', () => {
  expect(checkoutView(base)).toEqual({
    checkout_id: base.id,
    status: 'awaiting_signature',
    product: 'stars',
    username: '@alice',
    amount: 50,
    quantities: { stars: 50 },
    payment_method: 'usdt',
    payer_address: base.walletAddress,
    created_at: '2026-11-23T10:00:00.000Z',
    updated_at: '2026-11-23T10:00:02.000Z',
    valid_until: new Date(1_800_000_000 * 1000).toISOString(),
    prices: { usdt: '0.75' },
    transaction: base.checkoutTransaction,
  });
});

test('an expired checkout carries its error; a completed one its transaction hash', () => {
  const error = { code: 'CHECKOUT_EXPIRED', message: 'Nothing was paid.', action: 'Create a new checkout.' };
  expect(checkoutView({ ...base, status: 'expired', error }).error).toEqual(error);
  expect(checkoutView({ ...base, status: 'completed', transactionHash: 'ff'.repeat(32) }).transaction_hash).toBe(
    'ff'.repeat(32),
  );
});

test('a checkout row becomes a checkout.<status> webhook event with the checkout body; a purchase stays purchase.<status>', () => {
  expect(webhookEventOf({ ...base, status: 'completed' })).toEqual({
    type: 'checkout.completed',
    data: checkoutView({ ...base, status: 'completed' }),
  });
  expect(webhookEventOf({ ...base, mode: 'server_signed', status: 'completed' }).type).toBe('purchase.completed');
  expect(WEBHOOK_EVENT_TYPES).toEqual(expect.arrayContaining(['checkout.awaiting_signature', 'checkout.expired']));
  expect(WEBHOOK_EVENT_TYPES).not.toContain('purchase.expired');
});
