/**
 * A timing suite (*.timing.test.ts): npm test runs these after every other suite, one at a time.
 * Once a look saw part of a batch delivered, the batch's other members are looked for every
 * FAST_POLL_MS: a bound the scheduler of an oversubscribed machine would break, not the worker.
 */
import { useBatchingHarness } from './support/batching-harness';
import type { WorkerHarness } from './support/worker-harness';

jest.setTimeout(180_000);

const suite = useBatchingHarness();
let h: WorkerHarness;
beforeAll(() => {
  h = suite.harness;
});

it("polls a batch's remaining deliveries soon after Fragment showed its first ones", async () => {
  // Deliveries of one batch spread over 4 s, twice the 2 s poll interval; the rest arrive within
  // 2 s of a look that saw some, so the watch that follows them never runs out between two.
  // A round shows the watch only if some look saw part of a batch: when every first look came
  // after the whole batch was delivered (a loaded machine can make it late), it shows nothing,
  // and another round runs.
  h.sandbox.fragment!.configure({ doneDelay: { minMs: 100, maxMs: 4_000 } });
  try {
    const seed = h.wallet('base64-v5r1').seed;
    h.startWorker(16);
    let followed = 0;
    for (let round = 0; round < 4 && followed === 0; round += 1) {
      const created = [];
      for (const amount of [81, 82, 83, 84, 85, 86, 87, 88, 89])
        created.push(
          await h.createPurchase({
            product: 'stars',
            amount: amount + round * 10,
            payment_method: 'gram',
            username: '@alice',
            seed,
          }),
        );
      const rows = await h.waitForAll(
        created.map((c) => c.id),
        90_000,
      );
      expect(rows.map((r) => r.status)).toEqual(rows.map(() => 'completed'));
      const delivered = new Map(h.sandbox.fragment!.stats().deliveredOrders.map((d) => [d.ref, d.at]));
      const batches = new Map<string, typeof rows>();
      for (const row of rows) batches.set(row.batchId!, [...(batches.get(row.batchId!) ?? []), row]);
      // Once a look saw part of a batch delivered, the rest were looked for every FAST_POLL_MS: each
      // member Fragment delivered after that look completed well within the 2 s poll interval.
      for (const batch of batches.values()) {
        const firstSeen = Math.min(...batch.map((row) => row.completedAt!.getTime()));
        for (const row of batch) {
          const at = delivered.get(row.fragmentRef!)!;
          if (at <= firstSeen) continue;
          followed += 1;
          expect(row.completedAt!.getTime() - at).toBeLessThan(1_000);
        }
      }
    }
    expect(followed).toBeGreaterThan(0);
  } finally {
    h.sandbox.fragment!.configure({ doneDelay: { minMs: 60, maxMs: 120 } });
  }
});
