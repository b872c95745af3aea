/**
 * Attacks 19a and 28 (docs/security.md). (19a) A checkout named any funded wallet without proving
 * control of it, so anyone could spend the operator's Fragment login on a stranger's balance. With
 * TON_PROOF_REQUIRED (on in production) a checkout carries TON Connect's ton_proof over a payload
 * this gateway issued, for the shop's domain, recent, signed by the payer wallet's key. (28) A
 * checkout's idempotency key lived in the public payer address's scope, so a known buyer's
 * predictable keys could be squatted by anyone naming that address; now the scope is the proven
 * payer, or without a proof the client that sent the request.
 */
import { randomBytes } from 'node:crypto';
import { keyPairFromSeed } from '@ton/crypto';
import {
  CheckoutBuyer,
  post,
  startCheckoutGateway,
  waitForCheckout,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';

jest.setTimeout(180_000);

const DOMAIN = 'shop.example';
let h: WorkerHarness;
let required: CheckoutGateway;
let optional: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start();
  required = startCheckoutGateway(h, { TON_PROOF_REQUIRED: 'true', TON_PROOF_DOMAINS: DOMAIN });
  optional = startCheckoutGateway(h, { TON_PROOF_REQUIRED: 'false', TON_PROOF_DOMAINS: DOMAIN });
});

afterAll(async () => {
  await required?.close();
  await optional?.close();
  await h?.close();
});

async function payload(gw: CheckoutGateway): Promise<string> {
  const issued = await post(gw.app, '/api/v1/checkouts/ton-proof-payload', {});
  expect(issued.status).toBe(200);
  return (issued.body as { payload: string }).payload;
}

const order = (buyer: CheckoutBuyer, extra: Record<string, unknown> = {}) => ({
  username: '@alice',
  payer_address: buyer.address.toString(),
  idempotency_key: crypto.randomUUID(),
  product: 'stars',
  amount: 50,
  payment_method: 'gram',
  ...extra,
});

describe('(19a) ton_proof required', () => {
  test('without a proof: 400 CHECKOUT_PROOF_REQUIRED', async () => {
    const refused = await post(required.app, '/api/v1/checkouts', order(await CheckoutBuyer.create(h)));
    expect({ status: refused.status, code: refused.body.code, field: refused.body.details?.[0]?.field }).toEqual({
      status: 400,
      code: 'CHECKOUT_PROOF_REQUIRED',
      field: 'ton_proof',
    });
  });

  interface Fault {
    secretKey?: Buffer;
    domain?: string;
    timestamp?: number;
    payload?: string;
  }
  test.each<[string, string, Fault]>([
    ['signed by another key', 'ton_proof.signature', { secretKey: keyPairFromSeed(randomBytes(32)).secretKey }],
    ['for another site', 'ton_proof.domain', { domain: 'evil.example' }],
    ['signed an hour ago', 'ton_proof.timestamp', { timestamp: Math.floor(Date.now() / 1000) - 3_600 }],
    ['over a payload this gateway never issued', 'ton_proof.payload', { payload: randomBytes(32).toString('hex') }],
  ])('a proof %s: 400 CHECKOUT_PROOF_INVALID naming %s', async (_label, field, fault) => {
    const buyer = await CheckoutBuyer.create(h);
    const proof = buyer.tonProof(fault.payload ?? (await payload(required)), fault.domain ?? DOMAIN, fault);
    const refused = await post(required.app, '/api/v1/checkouts', order(buyer, { ton_proof: proof }));
    expect({ status: refused.status, code: refused.body.code, field: refused.body.details?.[0]?.field }).toEqual({
      status: 400,
      code: 'CHECKOUT_PROOF_INVALID',
      field,
    });
  });

  test("the wallet's own proof: the checkout is accepted and prepared", async () => {
    const buyer = await CheckoutBuyer.create(h);
    const accepted = await post(
      required.app,
      '/api/v1/checkouts',
      order(buyer, { ton_proof: buyer.tonProof(await payload(required), DOMAIN) }),
    );
    expect(accepted.status).toBe(202);
    const prepared = await waitForCheckout(required.app, accepted.body.checkout_id!, ['awaiting_signature', 'failed']);
    expect(prepared.status).toBe('awaiting_signature');
  });
});

describe('(28) the key scope is the proven payer or the client', () => {
  test("another client naming a buyer's address cannot squat its key; the buyer's proven checkout gets it", async () => {
    const buyer = await CheckoutBuyer.create(h);
    const key = `order-${randomBytes(3).toString('hex')}`;
    // The squatter names the buyer's address with the buyer's predictable key, and another order.
    const squatted = await post(
      optional.app,
      '/api/v1/checkouts',
      order(buyer, { idempotency_key: key, username: '@mallory', amount: 100 }),
    );
    expect(squatted.status).toBe(202);

    const real = await post(
      optional.app,
      '/api/v1/checkouts',
      order(buyer, { idempotency_key: key, ton_proof: buyer.tonProof(await payload(optional), DOMAIN) }),
    );
    expect(real.status).toBe(202);
    expect(real.body.checkout_id).not.toBe(squatted.body.checkout_id);
    expect(real.headers['idempotent-replayed']).toBeUndefined();
  });
});
