/**
 * Attack 18 (docs/security.md): whoever can write `purchases` redirected a payment. The worker
 * signed the `payment_request` stored in the row with no second look, so a leaked DATABASE_URL
 * rewrote one row and the worker paid the attacker from the victim's sealed seed. Now the request
 * carries the worker's MAC (keyed from its own STARSGATE_SECRET_KEY, bound to the purchase id), and
 * before signing the worker checks it and re-runs the allow-list, the spend caps, the payload
 * against the row and the validUntil ceiling: a rewritten row fails, nothing signed.
 *
 * The gateway, the part facing the internet, also gets a role of its own (GATEWAY_DATABASE_URL,
 * granted by the migrate entry point): intake, /submitted and the operator API work with it, and
 * it can change none of what decides a payment.
 *
 * The purchases park with their accepted request while the test holds their wallet busy (as a
 * sender of another batch would); the rewrite is plain SQL, as the attacker would send it.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Address } from '@ton/core';
import { Client } from 'pg';
import request from 'supertest';
import { connectDatabase, PurchaseTransitions, type HeldLease, type PurchaseRow } from '@starsgate/db';
import { TEST_DATABASE_ADMIN_URL } from '@starsgate/db/testing';
import {
  CheckoutBuyer,
  post,
  startCheckoutGateway,
  waitForCheckout,
  walletLeaseName,
  WorkerHarness,
  type CheckoutGateway,
} from '@starsgate/worker/testing';

jest.setTimeout(180_000);

let h: WorkerHarness;
const GATEWAY_ROLE = `starsgate_gateway_${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  // The gateway role owns nothing; its grants go with the test database, which the harness drops.
  await h?.close();
  const owner = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await owner.connect();
  await owner.query(`DROP ROLE IF EXISTS ${GATEWAY_ROLE}`);
  await owner.end();
});

/** Holds `walletRaw` busy: purchases of it accept Fragment's request, store it and park. */
async function holdWallet(walletRaw: string): Promise<HeldLease> {
  const lease = await h.deps.leases.acquire(
    walletLeaseName(walletRaw),
    `test-hold-${randomBytes(3).toString('hex')}`,
    60_000,
  );
  if (!lease) throw new Error(`wallet ${walletRaw} is busy`);
  return lease;
}

async function parkedWithRequest(id: string): Promise<PurchaseRow> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const row = await h.find(id);
    if (row.paymentRequest && row.status === 'preparing') return row;
    if (Date.now() > deadline || !['queued', 'preparing'].includes(row.status))
      throw new Error(`purchase ${id} is ${row.status} without a parked request: ${JSON.stringify(row.error)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function seqno(walletRaw: string): Promise<number> {
  return h.chain.getSeqno(Address.parseRaw(walletRaw));
}

async function expectRefusedUnpaid(id: string, walletRaw: string, seqnoBefore: number): Promise<void> {
  const row = await h.waitFor(
    id,
    ['failed', 'sending', 'submitted', 'confirming', 'completed', 'reconciliation_required'],
    60_000,
  );
  const error = row.error as { code: string; details: Array<{ check: string }> };
  expect({ status: row.status, code: error?.code }).toEqual({ status: 'failed', code: 'PAYMENT_REJECTED_BY_POLICY' });
  expect(error.details.map((detail) => detail.check)).toContain('mac');
  expect(row.batchId).toBeNull();
  expect(await seqno(walletRaw)).toBe(seqnoBefore);
}

test("a destination rewritten to the attacker's wallet: refused at signing, the attacker is not paid", async () => {
  const victim = h.wallet('base64-v5r1');
  const attacker = Address.parseRaw(`0:${randomBytes(32).toString('hex')}`);
  const hold = await holdWallet(victim.rawAddress);
  const created = await h.createPurchase({
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    seed: victim.seed,
  });
  const parked = await parkedWithRequest(created.id);
  const before = await seqno(victim.rawAddress);

  await h.database.pool.query(
    `UPDATE purchases SET payment_request = jsonb_set(payment_request, '{message,address}', to_jsonb($2::text)) WHERE id = $1`,
    [parked.id, attacker.toRawString()],
  );
  await h.deps.leases.release(hold);

  await expectRefusedUnpaid(created.id, victim.rawAddress, before);
  expect((await h.chain.getAccountState(attacker)).balance).toBe(0n);
});

test("another purchase's valid request moved into the victim's row: refused, the victim pays nobody's order", async () => {
  const victim = h.wallet('bip39-0');
  const attackerWallet = h.wallet('ton24-v4r2');
  const holds = [await holdWallet(victim.rawAddress), await holdWallet(attackerWallet.rawAddress)];
  const [victimOrder, attackerOrder] = await Promise.all([
    h.createPurchase({
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: victim.seed,
      account_index: victim.accountIndex,
    }),
    h.createPurchase({
      product: 'stars',
      username: '@bob',
      amount: 50,
      payment_method: 'gram',
      seed: attackerWallet.seed,
    }),
  ]);
  await Promise.all([parkedWithRequest(victimOrder.id), parkedWithRequest(attackerOrder.id)]);
  const before = await seqno(victim.rawAddress);

  // The attacker's own order, MAC and all, becomes what the victim's wallet is to pay.
  await h.database.pool.query(
    `UPDATE purchases AS victim SET payment_request = attacker.payment_request
       FROM purchases AS attacker WHERE victim.id = $1 AND attacker.id = $2`,
    [victimOrder.id, attackerOrder.id],
  );
  for (const hold of holds) await h.deps.leases.release(hold);

  await expectRefusedUnpaid(victimOrder.id, victim.rawAddress, before);
  expect(h.paymentsByRef(victim.rawAddress).size).toBe(0);
});

describe("the gateway's own role (GATEWAY_DATABASE_URL)", () => {
  const ADMIN_TOKEN = randomBytes(32).toString('hex');
  let gatewayUrl: string;
  let asGateway: Client;
  let gw: CheckoutGateway;

  beforeAll(async () => {
    const url = new URL(h.database.url);
    url.username = GATEWAY_ROLE;
    url.password = 'gateway-role-password';
    gatewayUrl = url.toString();
    // The migrate image's entry point, as a deployment runs it: the owner's URL and the gateway role's.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'packages/db/src/cli/migrate.ts'], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...process.env, DATABASE_URL: h.database.url, GATEWAY_DATABASE_URL: gatewayUrl },
    });
    asGateway = new Client({ connectionString: gatewayUrl });
    await asGateway.connect();
    gw = startCheckoutGateway(h, {
      DATABASE_URL: gatewayUrl,
      KEY_DERIVATIONS_PER_MINUTE: '100000',
      STARSGATE_ADMIN_TOKENS: ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE: 'loopback',
    });
  });

  afterAll(async () => {
    await gw?.close();
    await asGateway?.end();
  });

  test('a gateway running as it takes a purchase and a checkout through /submitted; both complete', async () => {
    const wallet = h.wallet('base64-v5r1');
    const purchase = await post(gw.app, '/api/v1/purchases', {
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: wallet.seed,
      idempotency_key: crypto.randomUUID(),
    });
    expect(purchase.status).toBe(202);

    const buyer = await CheckoutBuyer.create(h);
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
    const submitted = await post(gw.app, `/api/v1/checkouts/${created.body.checkout_id!}/submitted`, {
      boc: await buyer.sign(prepared.transaction!),
    });
    expect(submitted.status).toBe(202);

    expect((await h.waitFor(purchase.body.purchase_id!)).status).toBe('completed');
    expect((await h.waitFor(created.body.checkout_id!)).status).toBe('completed');
  });

  test('its operator API stores, rotates and removes a webhook endpoint, each audited', async () => {
    const admin = (method: 'post' | 'delete', url: string) =>
      request(gw.adminApp)[method](url).set('authorization', `Bearer ${ADMIN_TOKEN}`);
    const created = await admin('post', '/admin/api/webhook-endpoints').send({ url: 'http://127.0.0.1:9/hook' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    expect((await admin('post', `/admin/api/webhook-endpoints/${id}/rotate-secret`)).status).toBe(200);
    expect((await admin('delete', `/admin/api/webhook-endpoints/${id}`)).status).toBe(204);
    const audited = await asGateway.query<{ action: string }>(
      'SELECT action FROM admin_actions WHERE target_id = $1 ORDER BY id',
      [id],
    );
    expect(audited.rows.map((row) => row.action)).toHaveLength(3);
  });

  test("an operator's resolution, made as the gateway role, ends a reconciliation case and destroys its secret", async () => {
    const wallet = h.wallet('base64-v5r1');
    const created = await post(gw.app, '/api/v1/purchases', {
      product: 'stars',
      username: '@alice',
      amount: 51,
      payment_method: 'gram',
      seed: wallet.seed,
      idempotency_key: crypto.randomUUID(),
    });
    const done = await h.waitFor(created.body.purchase_id!);
    // A case to resolve, its secret still stored (as the worker leaves one in reconciliation).
    await h.database.pool.query(
      `UPDATE purchases SET status = 'reconciliation_required', completed_at = NULL WHERE id = $1`,
      [done.id],
    );
    await h.database.pool.query('UPDATE wallet_secrets SET destroyed_at = NULL WHERE purchase_id = $1', [done.id]);
    const row = await h.find(done.id);
    const asGatewayDb = connectDatabase(gatewayUrl, { max: 1 });
    try {
      const resolved = await new PurchaseTransitions(asGatewayDb.db).applyUnheld(
        { id: row.id, version: row.version },
        'token:test',
        { status: 'failed', error: { code: 'PURCHASE_FAILED' }, completedAt: new Date(), stepStartedAt: new Date() },
        {
          fromStatus: row.status,
          mergeEvidence: { resolution: { outcome: 'failed' } },
          event: { toStatus: 'failed', reason: 'test resolution' },
        },
      );
      expect(resolved?.status).toBe('failed');
    } finally {
      await asGatewayDb.close();
    }
    const secret = await h.database.pool.query('SELECT destroyed_at FROM wallet_secrets WHERE purchase_id = $1', [
      done.id,
    ]);
    expect(secret.rows[0]!.destroyed_at).not.toBeNull();
  });

  test('a paid purchase moved back to preparing with the columns the gateway role may update: not signed again', async () => {
    const wallet = h.wallet('base64-v5r1');
    const hold = await holdWallet(wallet.rawAddress);
    const created = await h.createPurchase({
      product: 'stars',
      username: '@alice',
      amount: 52,
      payment_method: 'gram',
      seed: wallet.seed,
    });
    await parkedWithRequest(created.id);
    // The sealed seed as it is while the purchase is in flight (sending, confirming): the rewrite
    // below stands in for one made then, before completion destroys it.
    const sealed = await h.database.pool.query<{ ciphertext: Buffer; wrapped_key: Buffer }>(
      'SELECT ciphertext, wrapped_key FROM wallet_secrets WHERE purchase_id = $1',
      [created.id],
    );
    await h.deps.leases.release(hold);
    expect((await h.waitFor(created.id)).status).toBe('completed');
    const paid = () => [...h.paymentsByRef(wallet.rawAddress).values()].reduce((sum, count) => sum + count, 0);
    const paymentsBefore = paid();
    const before = await seqno(wallet.rawAddress);

    await asGateway.query(
      `UPDATE purchases SET status = 'preparing', batch_id = NULL, normalized_hash = NULL, seqno = NULL,
         valid_until = NULL, transaction_hash = NULL, transaction_lt = NULL, completed_at = NULL, error = NULL,
         step_started_at = now(), next_run_at = now(), lease_owner = NULL, lease_expires_at = NULL,
         version = version + 1, updated_at = now()
       WHERE id = $1`,
      [created.id],
    );
    await asGateway.query(
      'UPDATE wallet_secrets SET ciphertext = $2, wrapped_key = $3, destroyed_at = NULL WHERE purchase_id = $1',
      [created.id, sealed.rows[0]!.ciphertext, sealed.rows[0]!.wrapped_key],
    );

    const row = await h.waitFor(
      created.id,
      ['failed', 'sending', 'submitted', 'confirming', 'completed', 'reconciliation_required'],
      60_000,
    );
    const error = row.error as { code: string; details: Array<{ check: string }> } | null;
    expect({ status: row.status, code: error?.code }).toEqual({ status: 'failed', code: 'PAYMENT_REJECTED_BY_POLICY' });
    expect(error!.details.map((detail) => detail.check)).toEqual(['already_signed']);
    expect(await seqno(wallet.rawAddress)).toBe(before);
    expect(paid()).toBe(paymentsBefore);
  });

  test.each([
    ['the payment request', `UPDATE purchases SET payment_request = '{}'::jsonb`],
    ['the payer wallet', `UPDATE purchases SET wallet_address = '0:00'`],
    ['the order', `UPDATE purchases SET amount = 1, username = 'attacker'`],
    ["a checkout's transaction", `UPDATE purchases SET checkout_transaction = '{}'::jsonb`],
    ['the sealed seeds (read)', 'SELECT * FROM wallet_secrets'],
    ['the sealed seeds (rewrite)', `UPDATE wallet_secrets SET key_id = key_id`],
  ])('%s: permission denied to the gateway role', async (_what, statement) => {
    await expect(asGateway.query(statement)).rejects.toMatchObject({ code: '42501' });
  });
});
