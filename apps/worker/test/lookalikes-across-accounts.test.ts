/**
 * Identical orders on two Fragment accounts (issue 35 §6): each account's history lists only the
 * orders made on it, so the delivery check counts only that account's paid look-alikes. "50 Stars
 * to @alice" twice at once, one on each account: both complete, each listed by its own account.
 */
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { demoCredentials, demoFragmentCookies } from '@starsgate/sandbox/fragment';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

const seed = `lookalike-accounts-${randomBytes(3).toString('hex')}`;
const demo = demoCredentials(seed);
/** A second Telegram login: another `stel_token` (another account), its own page session. */
const secondAccountToken = randomBytes(32).toString('hex');
const secondAccountCookies = demoFragmentCookies(`${seed}:second`)
  .replace(/stel_token=[0-9a-f]+/, `stel_token=${secondAccountToken}`)
  .replace(/stel_ton_token=[^;]+/, `stel_ton_token=${demo.stelTonToken}`);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({
    seed,
    fragment: { acceptedStelTokens: [demo.stelToken, secondAccountToken] },
    env: {
      FRAGMENT_COOKIES: `${demoFragmentCookies(seed)} | ${secondAccountCookies}`,
      // The operator's word that each login is its own Telegram account (docs/fragment-protocol.md §21).
      FRAGMENT_ACCOUNT_SCOPE: 'login',
      // A stuck look-alike ends in reconciliation well before the test's own limit.
      CONFIRMING_MAX_AGE_MS: '30000',
    },
  });
});

afterAll(async () => {
  await h?.close();
});

test('the same 50 Stars to @alice on each of two accounts at once: both complete, each listed by its own account', async () => {
  const accounts = new Set(h.deps.fragment.clients.map((client) => client.accountId()));
  expect(accounts.size).toBe(2);

  const order = (wallet: 'base64-v5r1' | 'ton24-v4r2') => ({
    product: 'stars' as const,
    username: '@alice',
    amount: 50,
    payment_method: 'gram' as const,
    seed: h.wallet(wallet).seed,
  });
  const created = await Promise.all([h.createPurchase(order('base64-v5r1')), h.createPurchase(order('ton24-v4r2'))]);
  const done = await Promise.all(created.map((purchase) => h.waitFor(purchase.id)));

  // One order on each account (the pool hands concurrent flows to the least busy session).
  expect(new Set(done.map((purchase) => purchase.paymentRequest?.fragmentAccount)).size).toBe(2);
  expect(done.map((purchase) => ({ status: purchase.status, error: purchase.error }))).toEqual([
    { status: 'completed', error: null },
    { status: 'completed', error: null },
  ]);
  for (const purchase of done) expect(h.deliveredCount(purchase.fragmentRef)).toBe(1);
});

test('the operator API names the look-alike a paid purchase waits on, on its own account only', async () => {
  const token = randomBytes(24).toString('hex');
  const gateway = h.gateway({ STARSGATE_ADMIN_TOKENS: token });
  const [first, second] = h.deps.fragment.clients.map((client) => client.accountId());
  const order = { product: 'stars' as const, username: '@bob', amount: 77, payment_method: 'gram' as const };
  /** A purchase stored as paid on an account (its job never runs), in a status. */
  const paid = async (account: string, status: string) => {
    const row = await h.createPurchase({ ...order, seed: h.wallet('base64-v5r1').seed }, { enqueue: false });
    await h.database.pool.query(
      `UPDATE purchases SET status = $2, transaction_hash = $3, payment_request = jsonb_build_object('fragmentAccount', $4::text) WHERE id = $1`,
      [row.id, status, randomBytes(32).toString('hex'), account],
    );
    return row.id;
  };
  // Paid, never listed by Fragment: the case an operator has to look at.
  const stuck = await paid(first!, 'reconciliation_required');
  await paid(second!, 'confirming');
  const waiting = await paid(first!, 'confirming');

  const detail = await request(gateway.adminApp)
    .get(`/admin/api/purchases/${waiting}`)
    .set('Authorization', `Bearer ${token}`);
  expect(detail.status).toBe(200);
  expect(detail.body).toMatchObject({
    waiting_on_lookalikes: [stuck],
    waiting_reason: `waiting on look-alike ${stuck}`,
  });
});
