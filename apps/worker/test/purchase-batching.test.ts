/**
 * Batching on the sandbox with real PostgreSQL/Redis: purchases of one wallet queued together are
 * paid by shared externals, each keeps its own order, status and delivery, a batch's BOC is stored
 * once, the member that finds the batch's transaction settles its unheld siblings in the same
 * job, and a parked purchase waits for the sender's wake-up, with the sweeper as its fallback.
 */
import type { PaymentRequest } from '@starsgate/domain';
import { purchaseJobId } from '@starsgate/platform';
import { HeldPurchase } from '../src/purchases/persistence/held-purchase';
import { enterWalletSender } from '../src/purchases/persistence/purchase-writer';
import { batchLeaseOwner, wakeNextSender, walletLeaseName } from '../src/purchases/wallet/wallet-lease';
import { Sweeper } from '../src/sweeper/sweeper';
import { useBatchingHarness } from './support/batching-harness';
import type { WorkerHarness } from './support/worker-harness';

jest.setTimeout(180_000);

const suite = useBatchingHarness();
let h: WorkerHarness;
beforeAll(() => {
  h = suite.harness;
});

it('pays purchases of one wallet with shared externals and settles each batch together', async () => {
  const seed = h.wallet('base64-v5r1').seed;
  const created = [];
  for (const amount of [61, 62, 63, 64, 65, 66, 67, 68])
    created.push(
      await h.createPurchase({ product: 'stars', amount, payment_method: 'gram', username: '@alice', seed }),
    );
  h.startWorker(16);
  const rows = await h.waitForAll(
    created.map((c) => c.id),
    90_000,
  );

  expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'completed'));
  for (const row of rows) {
    expect(h.deliveredCount(row.fragmentRef)).toBe(1);
    expect(h.paymentsByRef(row.walletAddress!).get(row.fragmentRef!)).toBe(1);
    expect(h.transactionExists(row.walletAddress!, row.transactionHash!)).toBe(true);
  }
  expect(new Set(rows.map((r) => r.fragmentRef)).size).toBe(rows.length);

  const members = new Map<string, typeof rows>();
  for (const row of rows) members.set(row.batchId!, [...(members.get(row.batchId!) ?? []), row]);
  // The first prepared purchase finds the wallet free and goes alone; the others wait and share.
  expect(members.size).toBeLessThan(rows.length);

  const externals = await h.database.pool.query<{
    batch_id: string;
    message_count: number;
    normalized_hash: string;
    seqno: number;
  }>('SELECT batch_id, message_count, normalized_hash, seqno FROM signed_externals WHERE batch_id = ANY($1)', [
    [...members.keys()],
  ]);
  expect(externals.rows).toHaveLength(members.size);
  for (const external of externals.rows) {
    const batch = members.get(external.batch_id)!;
    expect(external.message_count).toBe(batch.length);
    for (const row of batch)
      expect({ hash: row.normalizedHash, seqno: row.seqno, tx: row.transactionHash }).toEqual({
        hash: external.normalized_hash,
        seqno: external.seqno,
        tx: batch[0]!.transactionHash,
      });
  }

  // In a shared batch, the first member's job recorded the payment of every member: their
  // "payment found on chain" events carry one actor.
  const [largest] = [...members.values()].sort((a, b) => b.length - a.length);
  const actors = new Set<string>();
  for (const row of largest!) {
    const found = (await h.purchases.events(row.id)).find((e) => e.reason?.endsWith('payment found on chain'));
    expect(found).toBeDefined();
    actors.add(found!.actor);
  }
  expect(largest!.length).toBeGreaterThan(1);
  expect(actors.size).toBe(1);
});

it("frees the wallet when its batch lands, before the batch's confirms end", async () => {
  // Confirms take 1.5 s; the chain lands the batch within a few 200 ms blocks.
  h.sandbox.fragment!.configure({ faults: { methods: { confirmReq: { latency: { minMs: 1500, maxMs: 1500 } } } } });
  try {
    const seed = h.wallet('base64-v5r1').seed;
    const first = await h.createPurchase({
      product: 'stars',
      amount: 71,
      payment_method: 'gram',
      username: '@alice',
      seed,
    });
    h.startWorker(16);
    await h.waitFor(first.id, ['submitted']);
    const second = await h.createPurchase({
      product: 'stars',
      amount: 72,
      payment_method: 'gram',
      username: '@alice',
      seed,
    });
    const rows = await h.waitForAll([first.id, second.id], 90_000);
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed']);
    expect(rows[1]!.seqno).toBe(rows[0]!.seqno! + 1);

    const event = async (id: string, reason: string) =>
      (await h.purchases.events(id)).find((e) => e.reason === reason)!;
    // The second purchase was signed while the first one's confirm was still in flight.
    const confirmed = await event(first.id, 'confirmed with Fragment; payment found on chain');
    expect((await event(second.id, 'signed; persisted before broadcast')).createdAt.getTime()).toBeLessThan(
      confirmed.createdAt.getTime(),
    );
    // Its batch had landed by then: the sender's own job recorded the payment with the confirm, no poll job in between.
    expect(confirmed.actor).toBe((await event(first.id, 'signed; persisted before broadcast')).actor);
  } finally {
    h.sandbox.fragment!.configure({ faults: { methods: {} } });
  }
});

it('parks without a job of its own: the sender wakes it, and only a missed wake-up falls back to the sweeper', async () => {
  const { seed, rawAddress: wallet } = h.wallet('base64-v5r1');
  const created = await h.createPurchase(
    { product: 'stars', amount: 91, payment_method: 'gram', username: '@alice', seed },
    { enqueue: false },
  );
  const holder = (await h.deps.leases.acquire(walletLeaseName(wallet), batchLeaseOwner('sending'), 30_000))!;
  const attempt = await h.deps.transitions.claim(created.id, 'job', 30_000);
  if (!attempt?.claimed) throw new Error('not claimed');
  const purchase = new HeldPurchase(h.deps, attempt.row, 'job', attempt.sealedSecret);
  // A payment request was accepted while the wallet was busy: parked, due in a minute, no job.
  const entered = await enterWalletSender(
    h.deps,
    purchase,
    { name: walletLeaseName(wallet), owner: batchLeaseOwner('next'), ttlMs: 30_000 },
    60_000,
    // A stand-in request: parking stores it and reads nothing of it.
    { changes: { walletAddress: wallet, paymentRequest: { ref: 'r' } as PaymentRequest } },
  );
  expect(entered).toEqual({ lease: null, lost: false });
  const parkedJob = purchaseJobId(created.id, purchase.row.version);
  expect(await h.queue.getJob(parkedJob)).toBeUndefined();

  // Still parked when the sweeper passes: it gets its fallback job, delayed until it is due.
  const sweeper = new Sweeper({
    purchases: h.purchases,
    leases: h.deps.leases,
    queue: h.queue,
    logger: h.deps.logger,
    batchSize: 1_000,
    intervalMs: 60_000,
  });
  await sweeper.sweepOnce();
  expect(await (await h.queue.getJob(parkedJob))?.getState()).toBe('delayed');

  // The sender frees the wallet and wakes it: its job for the new version runs now, the fallback goes.
  await h.deps.leases.release(holder);
  await wakeNextSender(h.deps, wallet);
  const woken = await h.find(created.id);
  expect(woken.version).toBe(purchase.row.version + 1);
  expect(await h.queue.getJob(purchaseJobId(created.id, woken.version))).toBeDefined();
  expect(await h.queue.getJob(parkedJob)).toBeUndefined();
});
