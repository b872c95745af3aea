/**
 * Delivery confirmation and the wallet's send queue, on the sandbox with real PostgreSQL/Redis:
 * - Fragment's account history names recipient and quantity, not the order, so identical paid
 *   orders must all be listed before any of them counts as delivered;
 * - purchases that find their wallet busy park and are woken by the sender that frees it (the
 *   fallback re-check is set far beyond the test's wait, so only the wake-up can finish them);
 * - several Fragment login sessions each create and confirm their own orders.
 */
import { waitFor } from '@starsgate/platform/testing';
import { WorkerHarness } from './support/worker-harness';
import { observeDelivery } from '../src/purchases/delivery/delivery-check';

jest.setTimeout(180_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ fragmentSessions: 3, env: { WALLET_BUSY_RETRY_MS: '60000', BATCH_MAX: '1' } });
});

afterAll(async () => {
  await h?.close();
});

describe('delivery by account history', () => {
  it('counts identical paid orders: one listed delivery cannot vouch for two', async () => {
    const first = await h.createPurchase({
      product: 'stars',
      amount: 333,
      payment_method: 'gram',
      username: '@carol',
      seed: h.wallet('base64-v5r1').seed,
    });
    const completed = await h.waitFor(first.id);
    expect(completed.status).toBe('completed');
    const session = h.deps.fragment.session(completed.paymentRequest!.fragmentSession);
    // The purchase may have completed on the status screen, and one history read on a loaded machine
    // may come back without the row (the check then falls back to the status screen, state_done):
    // look until the history lists it, as the worker would.
    const listed = await waitFor(
      async () => {
        const observed = await observeDelivery(h.deps, completed, session, 0);
        return observed.via === 'history_listed' ? observed : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 250, what: "Fragment's history to list the completed order" },
    );
    expect(listed).toMatchObject({ delivered: true, via: 'history_listed' });

    // A second identical order that was paid but that Fragment never listed.
    const twin = await h.createPurchase(
      { product: 'stars', amount: 333, payment_method: 'gram', username: '@CAROL', seed: h.wallet('base64-v5r1').seed },
      { enqueue: false },
    );
    await h.database.pool.query(`UPDATE purchases SET status = 'confirming', transaction_hash = $2 WHERE id = $1`, [
      twin.id,
      'ab'.repeat(32),
    ]);
    const unlisted = await observeDelivery(h.deps, await h.find(twin.id), session, 0);
    expect(unlisted).toMatchObject({ delivered: false });
    expect(unlisted.detail).toMatch(/1 matching deliveries for 2 paid orders/);
    expect(await observeDelivery(h.deps, completed, session, 0)).toMatchObject({ delivered: false });

    // Once the twin is known not to have paid, the listed delivery is unambiguous again.
    await h.database.pool.query(`UPDATE purchases SET status = 'failed' WHERE id = $1`, [twin.id]);
    expect(await observeDelivery(h.deps, completed, session, 0)).toMatchObject({
      delivered: true,
      via: 'history_listed',
    });
  });

  it('still finds a delivery many history pages down, reading only the new rows on each look', async () => {
    // One row per page: eight deliveries put the first one eight pages down, past what one read
    // from the top used to reach (5 pages), so only the rows kept from earlier looks can show it.
    // Older rows load as Fragment's page script loads them: getPremiumHistory {type, offset_id} →
    // {body, foot} (the simulator's default), for the Stars table too.
    h.sandbox.fragment!.configure({ historyPageRows: 1 });
    try {
      const seed = h.wallet('base64-v5r1').seed;
      const first = await h.waitFor(
        (await h.createPurchase({ product: 'stars', amount: 401, payment_method: 'gram', username: '@dave', seed })).id,
      );
      expect(first.status).toBe('completed');
      for (const amount of [402, 403, 404, 405, 406, 407, 408]) {
        const later = await h.createPurchase({
          product: 'stars',
          amount,
          payment_method: 'gram',
          username: '@dave',
          seed,
        });
        expect((await h.waitFor(later.id)).status).toBe('completed');
      }
      const pagesBefore = h.sandbox.fragment!.stats().calls['getPremiumHistory'] ?? 0;
      const session = h.deps.fragment.session(first.paymentRequest!.fragmentSession);
      const seen = await observeDelivery(h.deps, first, session, Date.now());
      expect(seen).toMatchObject({ delivered: true, via: 'history_listed' });
      // The look read from the top to the newest row already kept (and past the rows sharing its
      // second): a "load more" or two, not the seven down to the first delivery.
      expect((h.sandbox.fragment!.stats().calls['getPremiumHistory'] ?? 0) - pagesBefore).toBeLessThanOrEqual(3);
    } finally {
      h.sandbox.fragment!.configure({ historyPageRows: 20 });
    }
  });
});

describe('history in the old load-more shape', () => {
  it('is reported as an upstream format error, never read as the end of the history', async () => {
    h.sandbox.fragment!.configure({ historyPageRows: 1 });
    try {
      const seed = h.wallet('base64-v5r1').seed;
      const older = await h.waitFor(
        (await h.createPurchase({ product: 'stars', amount: 411, payment_method: 'gram', username: '@erin', seed })).id,
      );
      expect(older.status).toBe('completed');
      const newer = await h.waitFor(
        (await h.createPurchase({ product: 'stars', amount: 412, payment_method: 'gram', username: '@erin', seed })).id,
      );
      expect(newer.status).toBe('completed');
      // The older delivery is a page down: reaching it takes a "load more", answered the old way.
      h.sandbox.fragment!.configure({ faults: { historyLoadMore: 'legacy' } });
      const session = h.deps.fragment.session(older.paymentRequest!.fragmentSession);
      const seen = await observeDelivery(h.deps, older, session, Date.now());
      expect(seen.historyFormatError).toMatch(/^getPremiumHistory: answer without the table's body and foot/);
      // The rows past the first page were not read, so the history cannot vouch for the older order
      // (only the session's status screen may, when that order is the session's latest).
      expect(seen.via).not.toBe('history_listed');
      const { rows } = await h.database.pool.query<{ source: string; occurrences: number }>(
        `SELECT source, occurrences FROM upstream_format_errors WHERE source = 'fragment_history:stars'`,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0]!.occurrences).toBeGreaterThanOrEqual(1);
    } finally {
      h.sandbox.fragment!.configure({ historyPageRows: 20, faults: { historyLoadMore: 'body_foot' } });
    }
  });
});

describe('wallet send queue', () => {
  it('wakes parked purchases of a busy wallet one external after another', async () => {
    const seed = h.wallet('bip39-0').seed;
    const created = await Promise.all(
      [51, 52, 53, 54].map((amount) =>
        h.createPurchase({
          product: 'stars',
          amount,
          payment_method: 'gram',
          username: '@dave',
          seed,
          account_index: 0,
        }),
      ),
    );
    const rows = await h.waitForAll(
      created.map((c) => c.id),
      25_000,
    );
    expect(rows.map((r) => r.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // BATCH_MAX=1: four externals, four seqnos, one after another on the one wallet. A parked
    // purchase re-checks on its own only after 30–90 s (WALLET_BUSY_RETRY_MS with jitter), beyond
    // this wait: finishing in time shows each was woken by the sender that freed the wallet.
    expect(new Set(rows.map((r) => r.seqno)).size).toBe(4);
    for (const row of rows) expect(h.deliveredCount(row.fragmentRef)).toBe(1);
    // The orders were spread over the login sessions and each was confirmed by its own.
    const sessions = new Set(rows.map((r) => r.paymentRequest!.fragmentSession));
    expect(sessions.size).toBeGreaterThan(1);
    for (const row of rows) {
      const events = await h.purchases.events(row.id);
      expect(events.find((e) => e.reason?.startsWith('confirmed with Fragment'))).toBeDefined();
    }
  });
});
