/**
 * The client's history read against the simulator serving the real table layout: further pages
 * until the rows reach back to the order's time, loaded as Fragment's page script loads them
 * (`getPremiumHistory {type, offset_id}` → `{body, foot}`), the old load-more shape reported, the login judged by the page's auth state (not by
 * its hash), a redesigned page reported as unrecognized, and a link answer without confirm_method.
 */
import { FragmentClient, FragmentError } from '../src';
import { buyProduct, buyStars } from './support/buy-stars';
import { startSimulator, type SimulatorServer } from './support/simulator-server';
import { TestWallet } from './support/test-wallet';

let server: SimulatorServer;
const payer = new TestWallet('history-payer');

beforeAll(async () => {
  server = await startSimulator({ historyPageRows: 2 });
  await server.chain.fund(payer.address, { gram: 100_000_000_000n });
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  server.sim.configure({
    faults: {
      historyMarkup: 'table',
      historyLoadMore: 'body_foot',
      historyDates: 'datetime',
      omitConfirmMethod: false,
      sessionExpired: false,
    },
  });
});

function newClient(cookies = server.freshCookies()): FragmentClient {
  return new FragmentClient({ baseUrl: server.baseUrl, cookies, timeoutMs: 5_000 });
}

function buy(client: FragmentClient, username: string, quantity: number) {
  return buyStars(server, client, payer, username, quantity);
}

it('reads further pages until the rows reach back to the given time, and no further', async () => {
  const client = newClient();
  const startedAt = Date.now() - 1_000;
  for (const [username, quantity] of [
    ['alice', 50],
    ['bob', 75],
    ['carol', 1000],
    ['dave', 100],
    ['erin', 150],
  ] as const)
    await buy(client, username, quantity);
  const calls = () => server.sim.stats().calls['getPremiumHistory'] ?? 0;

  const before = calls();
  const first = await client.deliveryHistory('stars');
  expect(first).toMatchObject({ shape: 'listed', pages: 1, truncated: true });
  expect(first.rows.map((r) => r.recipient)).toEqual(['erin', 'dave']);
  expect(calls() - before).toBe(0);

  const all = await client.deliveryHistory('stars', { since: startedAt });
  expect(all.rows.map((r) => `${r.recipient}#${r.quantity}`)).toEqual([
    'erin#150',
    'dave#100',
    'carol#1000',
    'bob#75',
    'alice#50',
  ]);
  expect(all).toMatchObject({ shape: 'listed', pages: 3, truncated: false });
  expect(calls() - before).toBe(2);

  // Rows older than `since` end the read: a time after every delivery needs the first page only.
  const recent = await client.deliveryHistory('stars', { since: Date.now() + 60_000 });
  expect(recent.pages).toBe(1);
});

it('loads more Premium rows with the empty type the Premium page gives (it names none)', async () => {
  const client = newClient();
  const startedAt = Date.now() - 1_000;
  for (const [username, months] of [
    ['alice', 3],
    ['bob', 6],
    ['carol', 12],
  ] as const)
    await buyProduct(server, client, payer, 'premium', username, months);
  const before = server.sim.stats().calls['getPremiumHistory'] ?? 0;
  const read = await client.deliveryHistory('premium', { since: startedAt });
  expect(read.rows.map((r) => `${r.recipient}#${r.quantity}`)).toEqual(['carol#12', 'bob#6', 'alice#3']);
  expect(read).toMatchObject({ shape: 'listed', pages: 2, truncated: false });
  expect((server.sim.stats().calls['getPremiumHistory'] ?? 0) - before).toBe(1);
});

it('reads date cells that show only text (time.short, UTC) to the minute they show', async () => {
  const client = newClient();
  const startedAt = Date.now() - 1_000;
  for (const [username, quantity] of [
    ['dave', 90],
    ['erin', 95],
    ['alice', 99],
  ] as const)
    await buy(client, username, quantity);
  const exact = await client.deliveryHistory('stars', { since: startedAt });
  server.sim.configure({ faults: { historyDates: 'text' } });
  const shown = await client.deliveryHistory('stars', { since: startedAt - 60_000 });
  expect(shown.shape).toBe('listed');
  expect(shown.rows.map((r) => r.text).join('\n')).toMatch(/ at \d{2}:\d{2}$/m);
  expect(shown.rows.slice(0, 3).map((r) => [r.recipient, r.deliveredAt])).toEqual(
    exact.rows.slice(0, 3).map((r) => [r.recipient, r.deliveredAt - (r.deliveredAt % 60_000)]),
  );
});

it('the old load-more shape ({html, next_offset}) is a format error, never the end of the history', async () => {
  const client = newClient();
  const startedAt = Date.now() - 1_000;
  for (const [username, quantity] of [
    ['alice', 60],
    ['bob', 70],
    ['carol', 80],
  ] as const)
    await buy(client, username, quantity);
  server.sim.configure({ faults: { historyLoadMore: 'legacy' } });
  const read = await client.deliveryHistory('stars', { since: startedAt });
  expect(read.shape).toBe('unrecognized');
  expect(read.problem).toMatch(/^getPremiumHistory: answer without the table's body and foot \(keys: ok, html\b/);
  // The first page's rows were read; the rows beyond it are not taken for the history's end.
  expect(read.rows.map((r) => r.recipient)).toEqual(['carol', 'bob']);
  expect(read.pages).toBe(2);
});

it('a redesigned history page is unrecognized, never an empty history', async () => {
  const client = newClient();
  await buy(client, 'alice', 50);
  server.sim.configure({ faults: { historyMarkup: 'changed' } });
  const read = await client.deliveryHistory('stars');
  expect(read).toMatchObject({ shape: 'unrecognized', rows: [] });
  expect(read.problem).toMatch(/neither history rows nor an empty-history notice/);
});

it('a dead login cannot read the history', async () => {
  const client = newClient();
  server.sim.configure({ faults: { sessionExpired: true } });
  const error = await client.deliveryHistory('stars').catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FragmentError);
  expect(error).toMatchObject({ kind: 'SESSION_INVALID' });
});

it('a dead login cookie: the page re-read after "Access denied" shows it logged out → SESSION_INVALID', async () => {
  const client = newClient(server.freshCookies().replace(/stel_token=[^;]+/, `stel_token=${'0'.repeat(64)}`));
  const found = await client.searchRecipient('stars', 'alice', 50).catch((e: unknown) => e);
  expect(found).toMatchObject({ kind: 'SESSION_INVALID' });
  expect((found as Error).message).toMatch(/logged-out page/);
});

it('no confirm_method in the link answer: no confirm call, and the order is still delivered', async () => {
  server.sim.configure({ faults: { omitConfirmMethod: true } });
  const client = newClient();
  const before = server.sim.stats().calls['confirmReq'] ?? 0;
  const { confirm } = await buy(client, 'bob', 50);
  expect(confirm).toBe('not_requested');
  expect((server.sim.stats().calls['confirmReq'] ?? 0) - before).toBe(0);
});
