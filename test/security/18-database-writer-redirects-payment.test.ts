/**
 * Attack 18 (docs/security.md): whoever can write `purchases` redirected a payment. The worker
 * signed the `payment_request` stored in the row with no second look, so a leaked DATABASE_URL
 * rewrote one row and the worker paid the attacker from the victim's sealed seed. Now the request
 * carries the worker's MAC (keyed from its own STARSGATE_SECRET_KEY, bound to the purchase id), and
 * before signing the worker checks it and re-runs the allow-list, the spend caps, the payload
 * against the row and the validUntil ceiling: a rewritten row fails, nothing signed.
 *
 * The purchases park with their accepted request while the test holds their wallet busy (as a
 * sender of another batch would); the rewrite is plain SQL, as the attacker would send it.
 */
import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import type { HeldLease, PurchaseRow } from '@starsgate/db';
import { walletLeaseName, WorkerHarness } from '@starsgate/worker/testing';

jest.setTimeout(180_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  await h?.close();
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
