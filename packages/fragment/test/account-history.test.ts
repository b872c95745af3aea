/**
 * The account's history kept between looks: against the simulator's real pages, a look after new
 * deliveries reads only the new rows yet lists what a whole read lists; as a property over random
 * histories (rows stamped in shared seconds, pages of any size, looks of any reach), every look
 * lists an exact top part of the true history: never a row twice, never one it skipped.
 */
import fc from 'fast-check';
import { AccountHistory, FragmentClient, type HistoryReader, type HistoryRow } from '../src';
import { buyStars } from './support/buy-stars';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

describe('against the simulator', () => {
  let server: SimulatorServer;
  const payer = new TestWallet('account-history-payer');

  beforeAll(async () => {
    server = await startSimulator({ historyPageRows: 2 });
    await server.chain.fund(payer.address, { gram: 100_000_000_000n });
  });

  afterAll(async () => {
    await server?.close();
  });

  const buy = (client: FragmentClient, username: string, quantity: number) =>
    buyStars(server, client, payer, username, quantity);

  const nextSecond = () => new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 50));

  it('a look after new deliveries reads the new rows only, and lists what a whole read lists', async () => {
    const client = new FragmentClient({ baseUrl: server.baseUrl, cookies: server.freshCookies(), timeoutMs: 5_000 });
    const since = Date.now() - 60_000;
    for (const [username, quantity] of [
      ['alice', 50],
      ['bob', 75],
      ['carol', 100],
      ['dave', 150],
    ] as const)
      await buy(client, username, quantity);
    // Rows are stamped to the second: erin's row gets a second of its own, and so do the later ones.
    await nextSecond();
    await buy(client, 'erin', 200);
    const history = new AccountHistory({ maxPagesPerLook: 50, keepMs: 3_600_000, now: Date.now });
    const read: HistoryReader = (options) => client.deliveryHistory('stars', options);

    const first = await history.look(read, since);
    expect(first.rows.map((row) => row.recipient)).toEqual(['erin', 'dave', 'carol', 'bob', 'alice']);
    expect(first.pages).toBe(3);

    await nextSecond();
    await buy(client, 'alice', 250);
    await buy(client, 'bob', 300);
    const later = await history.look(read, since);
    const whole = await client.deliveryHistory('stars', { since, maxPages: 50 });
    expect(later.rows).toEqual(whole.rows);
    expect(later.rows.map((row) => row.recipient)).toEqual(['bob', 'alice', 'erin', 'dave', 'carol', 'bob', 'alice']);
    // The two new rows, then erin's and dave's: a row older than the newest kept one ends the read.
    expect(later.pages).toBe(2);
    expect(whole.pages).toBe(4);
  });
});

describe('over random histories', () => {
  interface Row extends HistoryRow {
    id: number;
  }

  /**
   * What readHistory does, over a list of rows (newest first) whose offsets are stable row ids; the
   * cursor carries the page's `type`, which every "load more" must send back as it was given.
   */
  function pagedReader(rows: () => Row[], pageRows: number, type: string): HistoryReader {
    return ({ since, maxPages = 5, from }) => {
      if (from !== undefined && from.type !== type) throw new Error(`load more with type ${from.type}`);
      const all = rows();
      let start = from === undefined ? 0 : all.findIndex((row) => row.id === Number(from.offsetId)) + 1;
      const read: Row[] = [];
      let pages = 0;
      let next: string | undefined;
      for (;;) {
        const page = all.slice(start, start + pageRows);
        pages += 1;
        read.push(...page);
        next = start + pageRows < all.length ? String(page.at(-1)!.id) : undefined;
        const oldest = page.at(-1)?.deliveredAt;
        if (next === undefined || since === undefined || (oldest !== undefined && oldest < since) || pages >= maxPages)
          break;
        start += pageRows;
      }
      return Promise.resolve({
        rows: read,
        shape: read.length > 0 ? 'listed' : 'empty',
        pages,
        truncated: next !== undefined,
        ...(next !== undefined ? { next: { type, offsetId: next } } : {}),
      });
    };
  }

  const step = fc.record({
    // New deliveries before this look, each 0–2 s after the previous one (0: the same second).
    added: fc.array(fc.integer({ min: 0, max: 2 }), { maxLength: 25 }),
    // How far back this look's order reaches, in seconds before now.
    reach: fc.integer({ min: 0, max: 120 }),
  });

  it('every look lists an exact top part of the history, back to its order when the pages allow', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.array(step, { minLength: 1, maxLength: 12 }),
        fc.constantFrom('', 'stars'),
        async (pageRows, maxPagesPerLook, steps, type) => {
          let clock = 1_000_000_000;
          const truth: Row[] = [];
          const history = new AccountHistory({ maxPagesPerLook, keepMs: 60_000, now: () => clock });
          const read = pagedReader(() => truth, pageRows, type);
          for (const { added, reach } of steps) {
            for (const gap of added) {
              clock += gap * 1_000;
              const id = truth.length + 1;
              truth.unshift({ id, recipientText: `@u${id}`, quantity: 50, deliveredAt: clock, text: `row ${id}` });
            }
            clock += 500;
            const since = clock - reach * 1_000;
            const look = await history.look(read, since);
            expect(look.rows).toEqual(truth.slice(0, look.rows.length));
            expect(look.pages).toBeLessThanOrEqual(maxPagesPerLook);
            // Within the pages allowed (and the rows kept), the look reaches back to its order.
            const needed = truth.filter((row) => row.deliveredAt >= since).length;
            if (Math.ceil((needed + 1) / pageRows) + 2 <= maxPagesPerLook && reach * 1_000 <= 60_000)
              expect(look.rows.filter((row) => row.deliveredAt >= since)).toHaveLength(needed);
          }
        },
      ),
      { numRuns: 300, seed: 19 },
    );
  });
});

it('an offset that moved with new rows (a position, not a row) adds no row twice', async () => {
  const row = (n: number): HistoryRow => ({
    recipientText: `@u${n}`,
    quantity: 50,
    deliveredAt: n * 1_000,
    text: `row ${n}`,
  });
  const truth = [3, 2, 1].map(row);
  // One row a page, and offsets that count rows from the top: rows added on top shift them.
  const read: HistoryReader = ({ since, maxPages = 5, from }) => {
    let start = from === undefined ? 0 : Number(from.offsetId);
    const rows: HistoryRow[] = [];
    let pages = 0;
    while (start < truth.length && pages < maxPages) {
      rows.push(truth[start]!);
      pages += 1;
      start += 1;
      if (since === undefined || rows.at(-1)!.deliveredAt < since) break;
    }
    const more = start < truth.length;
    return Promise.resolve({
      rows,
      shape: 'listed',
      pages,
      truncated: more,
      ...(more ? { next: { type: '', offsetId: String(start) } } : {}),
    });
  };
  const history = new AccountHistory({ maxPagesPerLook: 10, keepMs: 3_600_000, now: () => 10_000 });
  const text = (look: { rows: HistoryRow[] }) => look.rows.map((r) => r.text);
  expect(text(await history.look(read, 2_500))).toEqual(['row 3', 'row 2']);
  truth.unshift(row(5), row(4));
  // The kept offset ("2") now points at row 3, not row 1: the look stops there instead of adding it again.
  const moved = await history.look(read, 0);
  expect(text(moved)).toEqual(['row 5', 'row 4', 'row 3', 'row 2']);
  expect(moved.truncated).toBe(true);
  // The next look that needs older rows reads them from the top.
  expect(text(await history.look(read, 0))).toEqual(['row 5', 'row 4', 'row 3', 'row 2', 'row 1']);
});
