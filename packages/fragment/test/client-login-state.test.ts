/**
 * The two logins a Fragment page shows (docs/fragment-protocol.md §19.2): `state.unAuth` is the
 * Telegram login, `Wallet.init.logged_in` the TON wallet's. A login without `stel_ton_token`
 * (what a reading login holds) is logged in to Telegram and must load pages, search and price;
 * only paying needs the wallet. Against the real simulator, in its Fragment markup and its old one.
 */
import type { FragmentConfigPatch } from '@starsgate/sandbox/fragment';
import { FragmentClient } from '../src';
import { startSimulator, type SimulatorServer } from './support/simulator-server';

let server: SimulatorServer;

beforeAll(async () => {
  server = await startSimulator();
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  server.sim.configure({ faults: { loginMarkup: 'fragment', sessionExpired: false } });
});

const client = (cookies: string) =>
  new FragmentClient({ baseUrl: server.baseUrl, cookies, timeoutMs: 2_000, retry: { maxTries: 1 } });
const withoutWallet = () => server.freshCookies().replace(/;\s*stel_ton_token=[^;]+/, '');

it('a Telegram login without the wallet cookie loads pages, searches and prices', async () => {
  const reader = client(withoutWallet());
  expect(reader.cookieNames()).not.toContain('stel_ton_token');
  await expect(reader.sessionStatus()).resolves.toMatchObject({
    loggedIn: true,
    walletLoggedIn: false,
    wallet: undefined,
  });
  await expect(reader.tonRate()).resolves.toMatch(/^\d/);
  await expect(reader.searchRecipient('stars', 'alice', 50)).resolves.toMatchObject({ name: 'Alice Anders' });
  await expect(reader.optionPrices('premium')).resolves.toHaveProperty('3');
});

it('a paying login shows both logins and its wallet', async () => {
  await expect(client(server.freshCookies()).sessionStatus()).resolves.toMatchObject({
    loggedIn: true,
    walletLoggedIn: true,
    wallet: expect.stringMatching(/^0:[0-9a-f]{64}$/) as string,
  });
});

it('a dead login is logged out on both counts', async () => {
  server.sim.configure({ faults: { sessionExpired: true } });
  await expect(client(server.freshCookies()).sessionStatus()).resolves.toMatchObject({
    loggedIn: false,
    walletLoggedIn: false,
  });
  await expect(client(server.freshCookies()).tonRate()).rejects.toMatchObject({ kind: 'SESSION_INVALID' });
});

it('the old markup (logged_in for the Telegram login, unAuth only when logged out) is read without guessing', async () => {
  server.sim.configure({ faults: { loginMarkup: 'legacy' } } satisfies FragmentConfigPatch);
  const paying = await client(server.freshCookies()).sessionStatus();
  expect(paying.loggedIn).toBeUndefined();
  expect(paying.walletLoggedIn).toBe(true);
  await expect(client(withoutWallet()).tonRate()).resolves.toMatch(/^\d/);
});
