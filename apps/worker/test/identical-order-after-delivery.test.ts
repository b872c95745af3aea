/**
 * A second identical order after a delivered first one (issue 35 §6): the first is listed in the
 * account's history, so when it falls in the second's look-alike window it is counted and listed
 * alike, and the second completes as any order does. Measured, not bounded: the time from
 * `confirming` to `completed` of both is printed; what is asserted is that the second completed on
 * Fragment's own evidence (as many rows as paid orders like it), not at a deadline.
 */
import type { PurchaseRow } from '@starsgate/db';
import { WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  await h?.close();
});

const order = {
  product: 'stars' as const,
  username: '@dave',
  amount: 60,
  payment_method: 'gram' as const,
};

/** From entering `confirming` to `completed`, by the purchase's own events. */
async function confirmingMs(row: PurchaseRow): Promise<number> {
  const events = await h.purchases.events(row.id);
  const confirming = events.find((event) => event.toStatus === 'confirming')!;
  const completed = events.find((event) => event.toStatus === 'completed')!;
  return completed.createdAt.getTime() - confirming.createdAt.getTime();
}

test('a second identical order after a delivered first one completes on Fragment evidence like the first', async () => {
  const first = await h.waitFor((await h.createPurchase({ ...order, seed: h.wallet('base64-v5r1').seed })).id);
  expect(first.status).toBe('completed');
  const second = await h.waitFor((await h.createPurchase({ ...order, seed: h.wallet('ton24-v4r2').seed })).id);
  expect({ status: second.status, error: second.error }).toEqual({ status: 'completed', error: null });

  // What completed it: the history listing as many rows as paid orders like it (the first, delivered, is listed), or the status screen.
  const completion = (await h.purchases.events(second.id)).find((event) => event.toStatus === 'completed')!;
  expect((completion.data as { fragment?: string } | null)?.fragment).toMatch(
    /history lists (Ref#\w+|(\d+) matching deliveries for \2 paid orders like this)|were sent to/,
  );

  const [firstMs, secondMs] = [await confirmingMs(first), await confirmingMs(second)];
  console.info(
    `identical order after a delivered one: confirming → completed ${firstMs} ms (first), ${secondMs} ms (second)`,
  );
});

test("a row showing the order's own Ref# proves it alone, even beside an identical paid order never delivered", async () => {
  h.sandbox.fragment!.configure({ faults: { historyShowsRef: true } });
  try {
    const twin = { ...order, username: '@erin', amount: 65 };
    // Paid, never listed by Fragment (a reconciliation case): by count alone it would hold the next one back.
    const stuck = await h.createPurchase({ ...twin, seed: h.wallet('base64-v5r1').seed }, { enqueue: false });
    await h.database.pool.query(
      `UPDATE purchases SET status = 'reconciliation_required', transaction_hash = $2,
         payment_request = jsonb_build_object('fragmentAccount', $3::text) WHERE id = $1`,
      [stuck.id, 'cd'.repeat(32), h.deps.fragment.clients[0]!.accountId()],
    );
    const done = await h.waitFor((await h.createPurchase({ ...twin, seed: h.wallet('ton24-v4r2').seed })).id);
    expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });
    const completion = (await h.purchases.events(done.id)).find((event) => event.toStatus === 'completed')!;
    expect((completion.data as { fragment?: string }).fragment).toBe(`history lists Ref#${done.fragmentRef}`);
  } finally {
    h.sandbox.fragment!.configure({ faults: { historyShowsRef: false } });
  }
});
