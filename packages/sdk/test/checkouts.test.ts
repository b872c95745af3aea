/** Checkout methods against the shapes of issue 13 (recorded here: the routes are not on main yet). */
import { Starsgate, throwIfFailed, TopUpRequiredError, ValidationError } from '../src/index';
import { CHECKOUT_ID, errorBody, json, scriptedFetch } from './support/scripted-fetch';

const PAYER = `0:${'ab'.repeat(32)}`;
const checkout = (status: string, extra: Record<string, unknown> = {}) => ({
  checkout_id: CHECKOUT_ID,
  status,
  product: 'stars',
  username: '@alice',
  amount: 50,
  payment_method: 'gram',
  payer_address: PAYER,
  created_at: '2026-11-23T10:00:00.000Z',
  updated_at: '2026-11-23T10:00:02.000Z',
  ...extra,
});
const TRANSACTION = {
  validUntil: 1795000300,
  network: '-239',
  from: PAYER,
  messages: [{ address: 'UQBAjaOy', amount: '256100000', payload: 'te6cckEBAQEA' }],
};

function sdkWith(answers: Parameters<typeof scriptedFetch>[0]) {
  const script = scriptedFetch(answers);
  const sdk = new Starsgate({ fetch: script.fetch });
  (sdk as unknown as { sleep: () => Promise<void> }).sleep = () => Promise.resolve();
  return { sdk, sent: script.sent };
}

it('create → wait for the transaction → submit → wait for completion', async () => {
  const { sdk, sent } = sdkWith([
    json(202, { checkout_id: CHECKOUT_ID, status: 'preparing', status_url: `/api/v1/checkouts/${CHECKOUT_ID}` }),
    json(200, checkout('preparing')),
    json(
      200,
      checkout('awaiting_signature', {
        valid_until: '2026-11-23T10:05:00.000Z',
        prices: { gram: '0.2561' },
        transaction: TRANSACTION,
      }),
    ),
    json(202, checkout('submitted')),
    json(200, checkout('confirming')),
    json(200, checkout('completed', { transaction_hash: 'ef'.repeat(32) })),
  ]);
  const accepted = await sdk.createCheckout({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: PAYER,
    payer_public_key: 'cd'.repeat(32),
    idempotency_key: 'order-7',
  });
  expect(accepted).toMatchObject({ checkout_id: CHECKOUT_ID, status: 'preparing', replayed: false });
  expect(sent[0]!.body).toEqual({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: PAYER,
    payer_public_key: 'cd'.repeat(32),
    idempotency_key: 'order-7',
  });
  const ready = await sdk.waitForCheckoutTransaction(CHECKOUT_ID);
  expect(ready.transaction).toEqual(TRANSACTION);
  expect(ready.prices).toEqual({ gram: '0.2561' });
  expect((await sdk.submitCheckout(CHECKOUT_ID, 'te6ccBOC==')).status).toBe('submitted');
  expect(sent[3]).toMatchObject({ method: 'POST', body: { boc: 'te6ccBOC==' } });
  expect(sent[3]!.url.pathname).toBe(`/api/v1/checkouts/${CHECKOUT_ID}/submitted`);
  const done = await sdk.waitForCheckout(CHECKOUT_ID);
  expect(done).toMatchObject({ status: 'completed', transaction_hash: 'ef'.repeat(32), replacementAllowed: false });
});

it('a payer who cannot pay ends the transaction wait with TOP_UP_REQUIRED', async () => {
  const details = [{ currency: 'GRAM', required: '0.31', available: '0.01', shortfall: '0.3' }];
  const { sdk } = sdkWith([
    json(200, checkout('failed', { error: { code: 'TOP_UP_REQUIRED', message: 'short', details } })),
  ]);
  const ended = await sdk.waitForCheckoutTransaction(CHECKOUT_ID);
  expect(ended.transaction).toBeUndefined();
  expect(ended.replacementAllowed).toBe(true);
  expect(() => throwIfFailed(ended)).toThrow(TopUpRequiredError);
});

it('submit is retried with the same BOC; CHECKOUT_EXPIRED is a typed 400 with its action', async () => {
  const { sdk, sent } = sdkWith([
    new TypeError('fetch failed'),
    json(202, checkout('submitted')),
    json(400, errorBody('CHECKOUT_EXPIRED', { action: 'Create a new checkout with a new idempotency_key.' })),
  ]);
  await sdk.submitCheckout(CHECKOUT_ID, 'te6ccBOC==');
  expect(sent.map((r) => r.body!.boc)).toEqual(['te6ccBOC==', 'te6ccBOC==']);
  const error = await sdk.submitCheckout(CHECKOUT_ID, 'te6ccBOC==').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  expect(error).toMatchObject({
    code: 'CHECKOUT_EXPIRED',
    action: expect.stringContaining('new idempotency_key') as string,
  });
});

it("a ton_proof payload, then a checkout carrying the wallet's proof verbatim", async () => {
  const proof = {
    timestamp: 1795000000,
    domain: { lengthBytes: 12, value: 'shop.example' },
    payload: 'ab'.repeat(32),
    signature: 'c2lnbmF0dXJl',
  };
  const { sdk, sent } = sdkWith([
    json(200, { payload: 'ab'.repeat(32), expires_at: '2026-11-23T10:15:00.000Z' }),
    json(202, { checkout_id: CHECKOUT_ID, status: 'preparing' }),
  ]);
  expect((await sdk.createTonProofPayload()).payload).toBe('ab'.repeat(32));
  await sdk.createCheckout({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: PAYER,
    ton_proof: proof,
    idempotency_key: 'order-8',
  });
  expect(sent[0]).toMatchObject({ method: 'POST' });
  expect(sent[0]!.url.pathname).toBe('/api/v1/checkouts/ton-proof-payload');
  expect(sent[1]!.body).toMatchObject({ ton_proof: proof });
});
