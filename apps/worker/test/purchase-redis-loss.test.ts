/**
 * Redis is only the dispatcher: flushing it mid-flight loses jobs, never purchases. The sweeper
 * re-enqueues every live purchase from PostgreSQL, and the fenced state machine pays each once.
 */
import { WorkerHarness } from './support/worker-harness';
import { assertPaidOnceAndDelivered } from './support/assert-paid-once';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { SWEEP_INTERVAL_MS: '400' } });
});

afterAll(async () => {
  await h?.close();
});

test('FLUSHDB while purchases are in every state: all complete, each paid and delivered once', async () => {
  const wallets = [h.wallet('bip39-0'), h.wallet('ton24-v4r2'), h.wallet('base64-v5r1')];
  const ids: string[] = [];
  for (let i = 0; i < 12; i += 1) {
    const wallet = wallets[i % wallets.length]!;
    const created = await h.createPurchase({
      product: 'stars',
      amount: 50 + i,
      payment_method: i % 2 === 0 ? 'gram' : 'usdt',
      username: '@bob',
      seed: wallet.seed,
      ...(wallet.format === 'bip39_12' ? { account_index: wallet.accountIndex } : {}),
    });
    ids.push(created.id);
  }
  // Wait until the work is spread over several states, then lose every job.
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const states = new Set((await Promise.all(ids.map((id) => h.find(id)))).map((r) => r.status));
    if ([...states].some((s) => ['sending', 'submitted', 'confirming'].includes(s))) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const before = await h.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized']);
  expect(before.length).toBeGreaterThan(0);
  const flushedAt = Date.now();
  await h.redis.flushdb();
  // Every job that existed is gone. The running worker and the sweeper may already have added
  // jobs again (a job id is purchase + version, so a re-added one can reuse an id): those are new.
  const survivors = await Promise.all(before.map((job) => h.queue.getJob(job.id!)));
  expect(survivors.filter((job) => job !== undefined && job.timestamp < flushedAt)).toEqual([]);

  await assertPaidOnceAndDelivered(h, ids, true);
});
