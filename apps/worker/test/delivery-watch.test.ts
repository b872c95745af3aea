/**
 * A purchase waiting for Fragment's delivery costs nothing while it waits (issue 37): its row is
 * parked, due at its deadline, and only the delivery watch's shared look per Fragment account
 * wakes it. On the sandbox with real PostgreSQL and Redis: the row's version and its BullMQ jobs
 * do not move while Fragment shows nothing new, one look completes every purchase it answers, and
 * the look's spacing grows while nothing happens and comes back when a purchase starts waiting.
 */
import { waitFor } from '@starsgate/platform/testing';
import { WorkerHarness } from './support/worker-harness';
import { LOOK_BACKOFF_FACTOR, LookBackoff } from '../src/purchases/waits/look-backoff';

jest.setTimeout(120_000);

const POLL_MS = 150;
const LOOK_MAX_MS = 1_200;

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({
    env: {
      POLL_INTERVAL_MS: String(POLL_MS),
      WAIT_LOOK_MAX_MS: String(LOOK_MAX_MS),
      // The deadline job must not be what finishes these purchases.
      CONFIRMING_MAX_AGE_MS: '60000',
    },
  });
});

afterAll(async () => {
  await h?.close();
});

/** Fragment delivers this long after payment (the simulator's done delay). */
function deliverAfter(ms: number): void {
  h.sandbox.fragment!.configure({ doneDelay: { minMs: ms, maxMs: ms } });
}

/** Every BullMQ job id the queue holds for a purchase, whatever its state. */
async function jobIdsOf(purchaseId: string): Promise<string[]> {
  const jobs = await h.queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
  return jobs
    .filter((job) => job.data.purchaseId === purchaseId)
    .map((job) => job.id!)
    .sort();
}

/** Paid, waiting for delivery, and nobody holds it: parked. */
async function waitUntilParked(id: string) {
  let seen = '';
  return waitFor(
    async () => {
      const row = await h.find(id);
      seen = `${JSON.stringify(row.error)} ${row.status} v${row.version} held by ${row.leaseOwner ?? 'nobody'}, paid ${row.transactionHash !== null}`;
      return row.status === 'confirming' && row.transactionHash !== null && row.leaseOwner === null ? row : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 20, what: () => `purchase ${id} to park for its delivery (last seen: ${seen})` },
  );
}

function purchase(amount: number, wallet: 'bip39-0' | 'bip39-1' | 'base64-v5r1' | 'ton24-v4r2' = 'bip39-0') {
  return h.createPurchase({
    product: 'stars',
    amount,
    payment_method: 'gram',
    username: '@alice',
    seed: h.wallet(wallet).seed,
    wallet_address: h.wallet(wallet).address,
  });
}

describe('a purchase waiting for its delivery', () => {
  it('is not written and gets no job while Fragment shows nothing new, then completes on the shared look', async () => {
    deliverAfter(6_000);
    const created = await purchase(611);
    const parked = await waitUntilParked(created.id);
    const jobsBefore = await jobIdsOf(created.id);

    // Several looks at the account happen meanwhile (every 150 ms growing to 1.2 s).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const waited = await h.find(created.id);
    expect(waited.status).toBe('confirming');
    expect(waited.version).toBe(parked.version);
    expect(waited.workedAt.getTime()).toBe(parked.workedAt.getTime());
    // Not even a heartbeat or a claim (each moves worked_at, a claim the version too), and no job added.
    expect(await jobIdsOf(created.id)).toEqual(jobsBefore);

    const done = await h.waitFor(created.id);
    expect(done.status).toBe('completed');
    // Claimed by the look (one version) and completed (another): nothing in between.
    expect(done.version).toBe(parked.version + 2);
    const events = await h.purchases.events(created.id);
    const completion = events.find((event) => event.toStatus === 'completed')!;
    expect(completion.actor).toContain(':delivery-watch:');
    // Its deadline job went stale with the claim and was dropped.
    expect(await jobIdsOf(created.id)).not.toContain(`p-${created.id}-v${parked.version}`);
  });

  it('one look completes every purchase it answers', async () => {
    deliverAfter(2_500);
    const created = await Promise.all([
      purchase(612, 'bip39-0'),
      purchase(613, 'bip39-1'),
      purchase(614, 'base64-v5r1'),
      purchase(615, 'ton24-v4r2'),
    ]);
    const parked = await Promise.all(created.map((row) => waitUntilParked(row.id)));
    const done = await h.waitForAll(created.map((row) => row.id));
    for (const [index, row] of done.entries()) {
      expect(row.status).toBe('completed');
      expect(row.version).toBe(parked[index]!.version + 2);
      const events = await h.purchases.events(row.id);
      expect(events.find((event) => event.toStatus === 'completed')!.actor).toContain(':delivery-watch:');
    }
  });

  it("backs the account's looks off while nothing is new, and starts them over when a purchase starts waiting", async () => {
    deliverAfter(8_000);
    const account = h.deps.fragment.clients[0]!.accountId();
    const first = await purchase(616);
    await waitUntilParked(first.id);
    await waitFor(() => (h.deps.deliveryWatch!.intervalOf(account) === LOOK_MAX_MS ? true : undefined), {
      timeoutMs: 15_000,
      intervalMs: 20,
      what: 'the looks to back off to WAIT_LOOK_MAX_MS',
    });

    const second = await purchase(617, 'bip39-1');
    await waitUntilParked(second.id);
    await waitFor(() => ((h.deps.deliveryWatch!.intervalOf(account) ?? LOOK_MAX_MS) < LOOK_MAX_MS ? true : undefined), {
      timeoutMs: 5_000,
      intervalMs: 5,
      what: 'a new waiting purchase to bring the looks back to the poll interval',
    });
    const done = await h.waitForAll([first.id, second.id]);
    expect(done.map((row) => row.status)).toEqual(['completed', 'completed']);
  });
});

describe('LookBackoff', () => {
  it('grows by the factor up to the cap and resets to the base', () => {
    const backoff = new LookBackoff(1_000, 10_000);
    const waits = Array.from({ length: 8 }, () => backoff.next());
    expect(waits).toEqual([1_000, 1_500, 2_250, 3_375, 5_063, 7_595, 10_000, 10_000]);
    expect(LOOK_BACKOFF_FACTOR).toBe(1.5);
    backoff.reset();
    expect(backoff.peek()).toBe(1_000);
    expect(backoff.next()).toBe(1_000);
  });
});
