/**
 * Crash safety with the real worker process: SIGKILL at each named point of the state machine
 * (STARSGATE_CRASH_AT), then at random moments across many purchases; restarted workers must
 * finish every purchase with at most one payment per purchase on chain.
 *
 * CRASH_TEST_N sets the number of purchases of the random-kill run (issue: 100). The CI default
 * of 16 keeps this file near 90 s; `CRASH_TEST_N=100 npx jest apps/worker/test/purchase-crash-safety.test.ts`.
 */
import { CRASH_POINTS } from '../src/purchases/crash-points';
import { CRASH_TEST_ENV, exitWithin, WorkerFleet } from './support/worker-process';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';
import { assertPaidOnceAndDelivered } from './support/assert-paid-once';

const N = Number(process.env.CRASH_TEST_N ?? 16);
jest.setTimeout(Math.max(240_000, N * 6_000));

let h: WorkerHarness;
const fleet = new WorkerFleet(() => h.env);

beforeAll(async () => {
  h = await WorkerHarness.start({ worker: false, env: CRASH_TEST_ENV });
});

afterAll(async () => {
  await fleet.killAll();
  await h?.close();
});

describe.each(CRASH_POINTS.map((point) => [point]))('SIGKILL at %s', (point) => {
  test('the restarted worker completes the purchase, paid exactly once', async () => {
    const input: PurchaseInput = {
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: point === 'during_confirming' ? 'usdt' : 'gram',
      seed: h.wallet('base64-v5r1').seed,
    };
    const created = await h.createPurchase(input);
    const doomed = fleet.start({ STARSGATE_CRASH_AT: point });
    const exit = await exitWithin(doomed, 60_000);
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    const afterCrash = await h.find(created.id);
    expect(['queued', 'preparing', 'sending', 'submitted', 'confirming']).toContain(afterCrash.status);

    const worker = fleet.start();
    await assertPaidOnceAndDelivered(h, [created.id]);
    await worker.kill('SIGTERM');
    const events = await h.purchases.events(created.id);
    expect(events.filter((e) => e.toStatus === 'sending' && e.fromStatus !== 'sending').length).toBe(1);
  });
});

test(`${N} purchases over 4 wallets with random SIGKILLs: each completed (or delivery-unconfirmed with proof of one payment), nothing paid twice`, async () => {
  const wallets = [
    { seed: h.wallet('bip39-0').seed, account_index: 0 },
    { seed: h.wallet('bip39-1').seed, account_index: 1 },
    { seed: h.wallet('ton24-v4r2').seed },
    { seed: h.wallet('base64-v5r1').seed },
  ];
  const users = ['@alice', '@bob', '@carol', '@dave', '@erin'];
  const ids: string[] = [];
  for (let i = 0; i < N; i += 1) {
    const created = await h.createPurchase({
      product: i % 3 === 2 ? 'premium' : 'stars',
      amount: i % 3 === 2 ? 3 : 50 + i,
      payment_method: i % 2 === 0 ? 'gram' : 'usdt',
      username: users[i % users.length]!,
      ...wallets[i % wallets.length]!,
    });
    ids.push(created.id);
  }
  let kills = 0;
  const deadline = Date.now() + Math.max(30_000, N * 2_000);
  for (;;) {
    const rows = await Promise.all(ids.map((id) => h.find(id)));
    if (
      rows.every((r) => ['completed', 'failed', 'reconciliation_required'].includes(r.status)) ||
      Date.now() > deadline
    )
      break;
    const worker = fleet.start();
    await new Promise((resolve) => setTimeout(resolve, 1_500 + Math.random() * 3_000));
    await worker.kill('SIGKILL');
    kills += 1;
  }
  const finisher = fleet.start();
  await assertPaidOnceAndDelivered(h, ids, true);
  await finisher.kill('SIGTERM');
  expect(kills).toBeGreaterThan(0);
});
