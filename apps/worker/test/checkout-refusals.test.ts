/**
 * What a checkout refuses, each with its own code and nothing stored or broadcast: wallet secrets
 * (never stored or logged), payers it cannot identify, and every way a signed BOC can differ from
 * the prepared transaction. Also replays, conflicts, 404s across the two routes, the funds check
 * and expiry.
 */
import request from 'supertest';
import { Address, beginCell, Cell } from '@ton/core';
import { keyPairFromSeed } from '@ton/crypto';
import { randomBytes } from 'node:crypto';
import { parseUnits, GRAM_DECIMALS } from '@starsgate/domain';
import { dumpDatabase, dumpRedis } from '@starsgate/gateway/testing';
import { CheckoutBuyer } from './support/checkout-buyer';
import { get, post, startCheckoutGateway, waitForCheckout, type CheckoutGateway } from './support/checkout-gateway';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let gw: CheckoutGateway;

beforeAll(async () => {
  // A short Fragment validity, so a checkout nobody pays expires within the test.
  h = await WorkerHarness.start({ fragment: { validitySeconds: 25 } });
  gw = startCheckoutGateway(h);
});

afterAll(async () => {
  await gw?.close();
  await h?.close();
});

/** A well-formed request to sign when only the BOC's shape matters. */
const TEMPLATE_REQUEST = {
  validUntil: Math.floor(Date.now() / 1000) + 600,
  network: '-239' as const,
  from: '',
  messages: [{ address: new Address(0, Buffer.alloc(32, 7)).toString({ bounceable: false }), amount: '1' }],
};

let keyCounter = 0;
const key = () => `refusal-${process.pid}-${(keyCounter += 1)}`;

function order(buyer: CheckoutBuyer, extra: Record<string, unknown> = {}) {
  return {
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: buyer.address.toString(),
    idempotency_key: key(),
    ...extra,
  };
}

async function prepared(buyer: CheckoutBuyer, extra: Record<string, unknown> = {}) {
  const res = await post(gw.app, '/api/v1/checkouts', order(buyer, extra));
  expect(res.status).toBe(202);
  const body = await waitForCheckout(gw.app, res.body.checkout_id!, ['awaiting_signature', 'failed']);
  expect(body.status).toBe('awaiting_signature');
  return { id: body.checkout_id!, transaction: body.transaction! };
}

function submit(id: string, boc: string) {
  return post(gw.app, `/api/v1/checkouts/${id}/submitted`, { boc });
}

describe('secrets', () => {
  test.each(['seed', 'mnemonic', 'private_key', 'secret_key'])(
    'a `%s` field is 400 SEED_NOT_ACCEPTED; its value is absent from logs, Redis and the database',
    async (field) => {
      const buyer = await CheckoutBuyer.create(h, { deploy: false });
      const secret = `${randomBytes(24).toString('hex')} never-store-${field}`;
      const body = order(buyer, { [field]: secret });
      const res = await post(gw.app, '/api/v1/checkouts', body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('SEED_NOT_ACCEPTED');
      expect(res.body.details?.map((detail) => detail.field)).toEqual([field]);
      expect(res.body.action).toContain('TON Connect');
      expect(JSON.stringify(res.body)).not.toContain(secret);
      // Log lines reach the capture asynchronously: wait for this request's rejection line first.
      const requestId = res.headers['request-id'];
      for (let tries = 0; !gw.logLines.some((line) => line.includes(requestId!)); tries += 1) {
        if (tries > 50) throw new Error('the rejection was never logged');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(gw.logLines.some((line) => line.includes(requestId!) && line.includes('SEED_NOT_ACCEPTED'))).toBe(true);
      expect(gw.logLines.join('\n')).not.toContain(secret);
      expect(await dumpRedis(gw.redis)).not.toContain(secret);
      expect(await dumpDatabase(h.database.pool)).not.toContain(secret);
      const stored = await h.database.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM purchases WHERE idempotency_key = $1',
        [body.idempotency_key],
      );
      expect(stored.rows[0]!.n).toBe(0);
    },
  );
});

describe('creation', () => {
  test('an undeployed payer without payer_public_key and payer_state_init is 400 CHECKOUT_PAYER_KEY_REQUIRED, with an action', async () => {
    const buyer = await CheckoutBuyer.create(h, { deploy: false });
    const res = await post(gw.app, '/api/v1/checkouts', order(buyer));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'CHECKOUT_PAYER_KEY_REQUIRED',
      details: [{ field: 'payer_public_key' }],
    });
    expect(res.body.action).toContain('payer_state_init');
  });

  test("another wallet's state init is 400 CHECKOUT_PAYER_STATE_INIT_MISMATCH", async () => {
    const buyer = await CheckoutBuyer.create(h, { deploy: false });
    const other = await CheckoutBuyer.create(h, { deploy: false, gram: 1n, usdt: 0n });
    const res = await post(
      gw.app,
      '/api/v1/checkouts',
      order(buyer, { payer_public_key: other.account.publicKey, payer_state_init: other.account.walletStateInit }),
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'CHECKOUT_PAYER_STATE_INIT_MISMATCH',
      details: [{ field: 'payer_state_init' }],
    });
  });

  test('replays answer the same checkout; the key reused for another order is 409; keys are scoped by route', async () => {
    const buyer = await CheckoutBuyer.create(h);
    const body = order(buyer);
    const first = await post(gw.app, '/api/v1/checkouts', body);
    const again = await post(gw.app, '/api/v1/checkouts', body);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.checkout_id).toBe(first.body.checkout_id);
    const conflict = await post(gw.app, '/api/v1/checkouts', { ...body, amount: 51 });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // A purchase may carry the same key string.
    const purchase = await post(gw.app, '/api/v1/purchases', {
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: h.wallet('base64-v5r1').seed,
      idempotency_key: body.idempotency_key,
    });
    expect(purchase.status).toBe(202);
    expect(purchase.headers['idempotent-replayed']).toBeUndefined();
    expect(purchase.body.purchase_id).not.toBe(first.body.checkout_id);

    // Each route reads only its own rows.
    expect((await get(gw.app, `/api/v1/purchases/${first.body.checkout_id}`)).body.code).toBe('PURCHASE_NOT_FOUND');
    const crossed = await get(gw.app, `/api/v1/checkouts/${purchase.body.purchase_id}`);
    expect(crossed.status).toBe(404);
    expect(crossed.body.code).toBe('CHECKOUT_NOT_FOUND');
    for (const path of ['/api/v1/checkouts/00000000-0000-4000-8000-000000000000', '/api/v1/checkouts/not-a-uuid']) {
      const res = await get(gw.app, path);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'CHECKOUT_NOT_FOUND' });
    }
    const unknownSubmit = await submit('00000000-0000-4000-8000-000000000000', 'te6c');
    expect({ status: unknownSubmit.status, code: unknownSubmit.body.code }).toEqual({
      status: 404,
      code: 'CHECKOUT_NOT_FOUND',
    });
    await waitForCheckout(gw.app, first.body.checkout_id!, ['awaiting_signature']);
    const metrics = await request(gw.adminApp).get('/metrics');
    expect(metrics.text).toMatch(
      /purchases_created_total\{product="stars",payment_method="gram",mode="client_signed"\} [1-9]/,
    );
  });

  test('a payer short of funds ends failed with TOP_UP_REQUIRED and the exact shortfall', async () => {
    const buyer = await CheckoutBuyer.create(h, { gram: 300_000_000n, usdt: 0n });
    const res = await post(gw.app, '/api/v1/checkouts', order(buyer));
    const failed = await waitForCheckout(gw.app, res.body.checkout_id!, ['failed', 'awaiting_signature']);
    expect(failed.status).toBe('failed');
    expect(failed.transaction).toBeUndefined();
    const error = failed.error as { code: string; details: Array<Record<string, string>> };
    expect(error.code).toBe('TOP_UP_REQUIRED');
    const gram = error.details.find((d) => d.currency === 'GRAM')!;
    const balance = (await h.chain.getAccountState(buyer.address)).balance;
    expect(parseUnits(gram.available!, GRAM_DECIMALS)).toBe(balance);
    expect(parseUnits(gram.shortfall!, GRAM_DECIMALS)).toBe(
      parseUnits(gram.required!, GRAM_DECIMALS) - parseUnits(gram.available!, GRAM_DECIMALS),
    );
    expect(parseUnits(gram.shortfall!, GRAM_DECIMALS)).toBeGreaterThan(0n);
    // A failed checkout takes no signed transaction.
    const late = await submit(
      failed.checkout_id!,
      await buyer.sign({ ...TEMPLATE_REQUEST, from: buyer.address.toRawString() }),
    );
    expect({ status: late.status, code: late.body.code }).toEqual({
      status: 409,
      code: 'CHECKOUT_NOT_AWAITING_SIGNATURE',
    });
  });
});

describe('the signed BOC', () => {
  test('each tampering is refused with its own code and nothing is broadcast; then the real BOC completes, replays are 202 and another BOC is 409', async () => {
    const buyer = await CheckoutBuyer.create(h);
    const stranger = await CheckoutBuyer.create(h);
    const { id, transaction } = await prepared(buyer);
    const other = await prepared(buyer, { amount: 77 });
    const seqno = await buyer.seqno();
    const transactionsBefore = buyer.transactionCount();
    const now = Math.floor(Date.now() / 1000);

    const cases: Array<[string, Promise<string>, string]> = [
      ['amount', buyer.sign(transaction, { tamper: (m) => void (m[0]!.value += 1n) }), 'CHECKOUT_MESSAGE_MISMATCH'],
      [
        'destination',
        buyer.sign(transaction, { tamper: (m) => void (m[0]!.to = new Address(0, randomBytes(32))) }),
        'CHECKOUT_MESSAGE_MISMATCH',
      ],
      [
        'payload',
        buyer.sign(transaction, {
          tamper: (m) => void (m[0]!.body = beginCell().storeUint(0, 32).storeStringTail('Ref#evil').endCell()),
        }),
        'CHECKOUT_MESSAGE_MISMATCH',
      ],
      [
        'state init',
        buyer.sign(transaction, {
          tamper: (m) => void (m[0]!.init = { code: Cell.EMPTY, data: beginCell().storeUint(1, 8).endCell() }),
        }),
        'CHECKOUT_MESSAGE_MISMATCH',
      ],
      [
        'signature',
        buyer.sign(transaction, { secretKey: keyPairFromSeed(randomBytes(32)).secretKey }),
        'CHECKOUT_BAD_SIGNATURE',
      ],
      ['payer', stranger.sign(transaction), 'CHECKOUT_WRONG_PAYER'],
      ['seqno', buyer.sign(transaction, { seqno: seqno + 1 }), 'CHECKOUT_SEQNO_MISMATCH'],
      ['already expired', buyer.sign(transaction, { validUntil: now - 1 }), 'CHECKOUT_EXPIRED'],
      [
        'outliving validUntil',
        buyer.sign(transaction, { validUntil: transaction.validUntil + 60 }),
        'CHECKOUT_EXPIRED',
      ],
      [
        'signed for another checkout',
        // Within this checkout's validity, so only the other order's payload tells them apart.
        buyer.sign(other.transaction, { validUntil: transaction.validUntil }),
        'CHECKOUT_MESSAGE_MISMATCH',
      ],
      ['not a BOC', Promise.resolve('bm90IGEgYm9j'), 'CHECKOUT_BOC_INVALID'],
    ];
    for (const [label, bocPromise, code] of cases) {
      const res = await submit(id, await bocPromise);
      expect({ label, status: res.status < 500, code: res.body.code, field: res.body.details?.[0]?.field }).toEqual({
        label,
        status: true,
        code,
        field: 'boc',
      });
      expect([400, 409]).toContain(res.status);
    }
    // Nothing was broadcast: the wallet's seqno and transactions are as they were.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await buyer.seqno()).toBe(seqno);
    expect(buyer.transactionCount()).toBe(transactionsBefore);
    expect((await h.find(id)).status).toBe('awaiting_signature');

    const boc = await buyer.sign(transaction);
    const accepted = await submit(id, boc);
    expect(accepted.status).toBe(202);
    expect(accepted.headers['idempotent-replayed']).toBeUndefined();
    const replay = await submit(id, boc);
    expect(replay.status).toBe(202);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.checkout_id).toBe(id);
    const another = await submit(id, await buyer.sign(transaction, { seqno, validUntil: transaction.validUntil - 1 }));
    expect({ status: another.status, code: another.body.code }).toEqual({
      status: 409,
      code: 'CHECKOUT_ALREADY_SUBMITTED',
    });
    const done = await waitForCheckout(gw.app, id, ['completed', 'failed', 'reconciliation_required']);
    expect(done.status).toBe('completed');
    const row = await h.find(id);
    expect(h.deliveredCount(row.fragmentRef)).toBe(1);
    expect(h.paymentsByRef(buyer.address.toRawString()).get(row.fragmentRef!)).toBe(1);
  });

  test('nothing paid before valid_until: the checkout expires, and a late BOC is CHECKOUT_EXPIRED with an action', async () => {
    const buyer = await CheckoutBuyer.create(h);
    const { id, transaction } = await prepared(buyer);
    const late = await buyer.sign(transaction);
    const expired = await waitForCheckout(gw.app, id, ['expired', 'completed', 'failed'], 90_000);
    expect(expired.status).toBe('expired');
    expect(expired.error?.code).toBe('CHECKOUT_EXPIRED');
    expect(expired.error?.action).toContain('new checkout');
    expect(Date.now()).toBeGreaterThan(transaction.validUntil * 1000);
    const res = await submit(id, late);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CHECKOUT_EXPIRED');
    expect(res.body.action).toContain('new checkout');
    const events = await h.purchases.events(id);
    expect(events.map((e) => e.toStatus)).toEqual(['preparing', 'awaiting_signature', 'expired']);
  });
});
