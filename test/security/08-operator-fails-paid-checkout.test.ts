/**
 * Attack 8 (docs/security.md): an operator could resolve a paid checkout `failed` with no
 * chain check, because the guard looked only at the normalized hash of an accepted BOC, which a
 * checkout that went to reconciliation from `awaiting_signature` never has. Here the buyer's
 * wallet pays while the worker is away; the chain provider then fails, so the worker sends the
 * checkout to reconciliation without having seen the payment. `failed` must now be refused: the
 * payer's externals since the checkout started are judged with the BOC verifier.
 */
import request from 'supertest';
import type { Gateway } from '@starsgate/gateway';
import {
  CheckoutBuyer,
  post,
  startCheckoutGateway,
  waitForCheckout,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';
import { operatorGateway } from '../support/operator-gateway';

jest.setTimeout(180_000);

const TOKEN = 'operator-token-0123456789abcdef-attack8';
let h: WorkerHarness;
let gw: CheckoutGateway;
let operator: Gateway;

beforeAll(async () => {
  h = await WorkerHarness.start({
    fragment: { validitySeconds: 20 },
    env: { VALID_UNTIL_MARGIN_MS: '1000', CONFIRMING_MAX_AGE_MS: '1500' },
  });
  gw = startCheckoutGateway(h);
  operator = operatorGateway(h, TOKEN);
});

afterAll(async () => {
  h?.sandbox.chain.faults.set({});
  await gw?.close();
  await h?.close();
});

const resolve = (id: string, body: Record<string, unknown>) =>
  request(operator.adminApp)
    .post(`/admin/api/purchases/${id}/resolve`)
    .set('Authorization', `Bearer ${TOKEN}`)
    .send(body);

/** A checkout the worker sent to reconciliation from awaiting_signature (the chain could not be read after its deadline). */
async function unreadableCheckout(buyer: CheckoutBuyer, pay: boolean): Promise<string> {
  const created = await post(gw.app, '/api/v1/checkouts', {
    username: '@alice',
    payer_address: buyer.address.toString(),
    idempotency_key: crypto.randomUUID(),
    product: 'stars',
    amount: 50,
    payment_method: 'gram',
  });
  expect(created.status).toBe(202);
  const id = created.body.checkout_id!;
  const prepared = await waitForCheckout(gw.app, id, ['awaiting_signature', 'failed']);
  expect(prepared.status).toBe('awaiting_signature');
  await h.stopWorker();
  if (pay) {
    const seqno = await buyer.seqno();
    await buyer.broadcast(await buyer.sign(prepared.transaction!));
    await buyer.waitForSeqno(seqno + 1);
  }
  h.sandbox.chain.faults.set({ http5xx: { rate: 1 } });
  h.startWorker();
  const row = await h.waitFor(id, ['reconciliation_required', 'expired', 'completed', 'failed'], 90_000);
  h.sandbox.chain.faults.set({});
  expect({ status: row.status, normalizedHash: row.normalizedHash }).toEqual({
    status: 'reconciliation_required',
    normalizedHash: null,
  });
  return id;
}

test('failed is refused for a checkout the buyer paid: PAYMENT_EXECUTED naming its transaction', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const id = await unreadableCheckout(buyer, true);
  const res = await resolve(id, { outcome: 'failed', reason: 'looks unpaid', operator: 'alice' });
  expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'PAYMENT_EXECUTED' });
  expect(res.body.details[0].message).toMatch(/^[0-9a-f]{64} paid this checkout's transaction$/);
  expect((await h.find(id)).status).toBe('reconciliation_required');
});

test('failed is accepted for an unpaid checkout once its transaction can no longer land', async () => {
  const buyer = await CheckoutBuyer.create(h);
  const id = await unreadableCheckout(buyer, false);
  const res = await resolve(id, { outcome: 'failed', reason: 'never signed', operator: 'alice' });
  expect({ status: res.status, body: res.body.status }).toEqual({ status: 200, body: 'failed' });
});
