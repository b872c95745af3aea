/**
 * A purchase whose broadcast external the chain has not shown yet costs nothing while it waits
 * (issue 37): its row is parked until the external expires and the chain watch's shared look per
 * paying wallet rebroadcasts it and wakes the batch when it lands. On the sandbox with real
 * PostgreSQL, Redis and chain (its inclusion delayed): the row's version and its BullMQ jobs do not
 * move while the chain shows nothing, and the look moves the purchase on when the transaction lands.
 */
import { waitFor } from '@starsgate/platform/testing';
import type { PurchaseRow } from '@starsgate/db';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(120_000);

const POLL_MS = 150;
const LANDS_AFTER_MS = 4_000;

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({
    env: { POLL_INTERVAL_MS: String(POLL_MS), WAIT_LOOK_MAX_MS: '1000', CONFIRMING_MAX_AGE_MS: '60000' },
  });
});

afterEach(() => {
  h.sandbox.chain.faults.set({});
});

afterAll(async () => {
  await h?.close();
});

function order(username: string): PurchaseInput {
  return { product: 'stars', username, amount: 50, payment_method: 'gram', seed: h.wallet('base64-v5r1').seed };
}

async function jobIdsOf(id: string): Promise<string[]> {
  const jobs = await h.queue.getJobs(['waiting', 'delayed', 'prioritized', 'active', 'completed', 'failed']);
  return jobs
    .filter((job) => job.data.purchaseId === id)
    .map((job) => job.id!)
    .sort();
}

/** Broadcast, not on chain yet, nobody holds it: parked for the chain watch. */
async function waitUntilParked(id: string): Promise<PurchaseRow> {
  let seen = '';
  return waitFor(
    async () => {
      const row = await h.find(id);
      seen = `${row.status} v${row.version} held by ${row.leaseOwner ?? 'nobody'}`;
      const parked = (row.evidence as { landing_wait?: unknown } | null)?.landing_wait !== undefined;
      return row.status === 'confirming' && row.transactionHash === null && row.leaseOwner === null && parked
        ? row
        : undefined;
    },
    { timeoutMs: 30_000, intervalMs: 20, what: () => `purchase ${id} to park for its landing (last seen: ${seen})` },
  );
}

/** Row writes (versions) the whole purchase took, and its status events. */
async function costOf(row: PurchaseRow): Promise<{ versions: number; events: number }> {
  return { versions: row.version, events: (await h.purchases.events(row.id)).length };
}

test('a broadcast purchase the chain does not show yet keeps its version and jobs; the look moves it on when it lands', async () => {
  h.sandbox.chain.faults.set({ inclusionDelayMs: LANDS_AFTER_MS });
  const created = await h.createPurchase(order('@alice'));
  const parked = await waitUntilParked(created.id);
  const jobsBefore = await jobIdsOf(created.id);

  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const waited = await h.find(created.id);
  expect(waited.status).toBe('confirming');
  expect(waited.transactionHash).toBeNull();
  expect(waited.version).toBe(parked.version);
  expect(waited.workedAt.getTime()).toBe(parked.workedAt.getTime());
  expect(await jobIdsOf(created.id)).toEqual(jobsBefore);

  const done = await h.waitFor(created.id, undefined, 60_000);
  expect(done.status).toBe('completed');
  const woken = (await h.purchases.events(created.id)).find(
    (event) => event.reason === 'the chain watch found its transaction',
  )!;
  expect(woken.actor).toContain(':chain-watch:');
  // Parked well before its valid_until: woken by the look, not by its deadline job.
  expect(woken.createdAt.getTime()).toBeLessThan(done.validUntil! * 1000);
  process.stdout.write(`chain-watch: with the watch ${JSON.stringify(await costOf(done))}\n`);
});

test('without the watch the same slow landing polls: a version per poll interval', async () => {
  const watch = h.deps.chainWatch!;
  await watch.stop();
  h.deps.chainWatch = undefined;
  try {
    h.sandbox.chain.faults.set({ inclusionDelayMs: LANDS_AFTER_MS });
    const created = await h.createPurchase(order('@bob'));
    const done = await h.waitFor(created.id, undefined, 60_000);
    expect(done.status).toBe('completed');
    const cost = await costOf(done);
    // Each poll before the landing rescheduled the row (4 s at 150 ms).
    expect(cost.versions).toBeGreaterThan(15);
    process.stdout.write(`chain-watch: polling ${JSON.stringify(cost)}\n`);
  } finally {
    h.deps.chainWatch = watch;
    watch.start();
  }
});
