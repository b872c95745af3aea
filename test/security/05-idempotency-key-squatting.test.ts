/**
 * Attack 5 (docs/security.md): idempotency keys shared one global namespace. Anyone could post a
 * shop's predictable key (`order-1001`) first from a wallet of their own, so the real order got a
 * permanent 409; and a checkout's key, guessed with its order, answered with the victim's
 * checkout. Keys are now scoped to the payer (a purchase's payer public key, a checkout's payer
 * address proven by ton_proof, or without a proof the client, attack 28): another payer's key of
 * the same string is a different order. Within one payer the spec's rules hold: the same key with
 * the same order is a replay, with another order a 409.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  CheckoutBuyer,
  get,
  post,
  startCheckoutGateway,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';

jest.setTimeout(180_000);

const SHOP_DOMAIN = 'shop.example';
let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  h = await WorkerHarness.start();
  gw = startCheckoutGateway(h, { TON_PROOF_DOMAINS: SHOP_DOMAIN });
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

/** What a shop's order system might use as keys: predictable, unique only within the shop. */
const shopKey = () => `order-${randomBytes(3).readUIntBE(0, 3)}`;
const base64Seed = () => randomBytes(32).toString('base64');

const purchase = (seed: string, key: string, change: Record<string, unknown> = {}) =>
  post(gw.app, '/api/v1/purchases', {
    product: 'stars',
    username: '@victim_shop_customer',
    amount: 50,
    payment_method: 'gram',
    seed,
    idempotency_key: key,
    ...change,
  });

/** The shop's own checkout: the buyer's wallet proves itself (TON Connect ton_proof). */
async function provenCheckout(payer: CheckoutBuyer, key: string, change: Record<string, unknown> = {}) {
  const { payload } = (await post(gw.app, '/api/v1/checkouts/ton-proof-payload', {})).body as { payload: string };
  return checkout(payer, key, { ton_proof: payer.tonProof(payload, SHOP_DOMAIN), ...change });
}

const checkout = (payer: CheckoutBuyer, key: string, change: Record<string, unknown> = {}) =>
  post(gw.app, '/api/v1/checkouts', {
    product: 'stars',
    username: '@victim_shop_customer',
    amount: 50,
    payment_method: 'gram',
    payer_address: payer.address.toString(),
    idempotency_key: key,
    ...change,
  });

async function rowsWithKey(key: string): Promise<Array<{ id: string; mode: string; username: string }>> {
  return (
    await h.database.pool.query<{ id: string; mode: string; username: string }>(
      'SELECT id, mode, username FROM purchases WHERE idempotency_key = $1 ORDER BY created_at',
      [key],
    )
  ).rows;
}

describe('purchases', () => {
  test("a key squatted from another wallet does not block the victim's order: 202 and a purchase of its own", async () => {
    const key = shopKey();
    const squat = await purchase(base64Seed(), key, { username: '@attacker' });
    expect(squat.status).toBe(202);

    const real = await purchase(base64Seed(), key);
    expect({ status: real.status, code: real.body.code }).toEqual({ status: 202, code: undefined });
    expect(real.headers['idempotent-replayed']).toBeUndefined();
    expect(real.body.purchase_id).not.toBe(squat.body.purchase_id);

    const view = await get(gw.app, `/api/v1/purchases/${real.body.purchase_id}`);
    expect({ status: view.status, username: view.body.username }).toEqual({
      status: 200,
      username: '@victim_shop_customer',
    });
    expect(await rowsWithKey(key)).toEqual([
      { id: squat.body.purchase_id, mode: 'server_signed', username: '@attacker' },
      { id: real.body.purchase_id, mode: 'server_signed', username: '@victim_shop_customer' },
    ]);
  });

  test('two wallets sending one key concurrently (grouped by the intake batcher) each get their own purchase', async () => {
    const key = shopKey();
    const answers = await Promise.all([purchase(base64Seed(), key), purchase(base64Seed(), key)]);
    expect(answers.map((answer) => answer.status)).toEqual([202, 202]);
    expect(new Set(answers.map((answer) => answer.body.purchase_id)).size).toBe(2);
    expect(await rowsWithKey(key)).toHaveLength(2);
  });

  test('within one payer the spec holds: the same order replays, another order is a 409', async () => {
    const key = shopKey();
    const seed = base64Seed();
    const first = await purchase(seed, key);
    expect(first.status).toBe(202);

    const replay = await purchase(seed, key);
    expect({
      status: replay.status,
      id: replay.body.purchase_id,
      replayed: replay.headers['idempotent-replayed'],
    }).toEqual({ status: 202, id: first.body.purchase_id, replayed: 'true' });

    const otherOrder = await purchase(seed, key, { amount: 75 });
    expect({ status: otherOrder.status, code: otherOrder.body.code }).toEqual({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(otherOrder.body.details?.[0]?.field).toBe('idempotency_key');
    expect(await rowsWithKey(key)).toHaveLength(1);
  });
});

describe('checkouts', () => {
  let victim: CheckoutBuyer;
  let attacker: CheckoutBuyer;

  beforeAll(async () => {
    [victim, attacker] = [await CheckoutBuyer.create(h), await CheckoutBuyer.create(h)];
  });

  test("guessing a checkout's key and order from another payer address does not answer the victim's checkout", async () => {
    const key = shopKey();
    const real = await provenCheckout(victim, key);
    expect(real.status).toBe(202);

    const guess = await checkout(attacker, key);
    expect(guess.status).toBe(202);
    expect(guess.headers['idempotent-replayed']).toBeUndefined();
    expect(guess.body.checkout_id).not.toBe(real.body.checkout_id);
    expect(await rowsWithKey(key)).toHaveLength(2);
  });

  test("a checkout key squatted from another payer address does not block the victim's checkout", async () => {
    const key = shopKey();
    const squat = await checkout(attacker, key, { amount: 100 });
    expect(squat.status).toBe(202);

    const real = await provenCheckout(victim, key);
    expect({ status: real.status, code: real.body.code }).toEqual({ status: 202, code: undefined });
    expect(real.body.checkout_id).not.toBe(squat.body.checkout_id);
  });

  test('within one payer address the spec holds: the same order replays, another order is a 409', async () => {
    const key = randomUUID();
    const first = await provenCheckout(victim, key);
    expect(first.status).toBe(202);

    const replay = await provenCheckout(victim, key);
    expect({
      status: replay.status,
      id: replay.body.checkout_id,
      replayed: replay.headers['idempotent-replayed'],
    }).toEqual({ status: 202, id: first.body.checkout_id, replayed: 'true' });

    const otherOrder = await provenCheckout(victim, key, { username: '@someone_else' });
    expect({ status: otherOrder.status, code: otherOrder.body.code }).toEqual({
      status: 409,
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    expect(await rowsWithKey(key)).toHaveLength(1);
  });
});
