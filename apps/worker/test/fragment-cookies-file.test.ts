/**
 * Renewing a Fragment login without a restart (docs/fragment-protocol.md §20.2, §20.3): the
 * worker's upstreams, built as its main builds them, read their logins from FRAGMENT_COOKIES_FILE.
 * When the simulator kills the login, it is marked dead; once the operator writes a new login into
 * the file, the worker uses it within a poll, the same process throughout.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies } from '@starsgate/sandbox/fragment';
import { splitCookieSets, type FragmentSessionPool } from '@starsgate/fragment';
import { createLogger } from '@starsgate/platform';
import { waitFor } from '@starsgate/platform/testing';
import { loadWorkerConfig } from '../src/config';
import { createUpstreams, type Upstreams } from '../src/upstreams';

jest.setTimeout(60_000);

const seed = `cookies-file-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;
let upstreams: Upstreams | undefined;
const dir = mkdtempSync(path.join(tmpdir(), 'starsgate-cookies-file-'));
const file = path.join(dir, 'fragment-cookies');

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    seed,
    demoWallets: false,
    fragment: { latency: { minMs: 0, maxMs: 0 } },
  });
});
afterAll(async () => {
  await upstreams?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

const ssidOf = (cookies: string) => /stel_ssid=([^;\s]+)/.exec(cookies)![1]!;

function buy(pool: FragmentSessionPool, user: string) {
  return pool.flow(async (client) => {
    const found = await client.searchRecipient('stars', user, 50);
    return client.initRequest({ product: 'stars', recipient: found.recipient, amount: 50, paymentMethod: 'ton' });
  });
}

test('a login renewed in FRAGMENT_COOKIES_FILE is used without a restart', async () => {
  const [first, renewed] = splitCookieSets(demoFragmentCookies(seed, 2)) as [string, string];
  writeFileSync(file, `# the paying login\n${first}\n`);
  const config = loadWorkerConfig({
    NODE_ENV: 'test',
    REDIS_URL: process.env.REDIS_URL!,
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
    FRAGMENT_COOKIES_FILE: file,
    FRAGMENT_COOKIES_FILE_POLL_MS: '100',
    STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}`,
  });
  upstreams = createUpstreams(config, createLogger({ service: 'cookies-file-test', level: 'silent' }));
  const pool = upstreams.fragment;
  const [firstId] = pool.clients.map((client) => client.sessionId());
  expect(pool.clients).toHaveLength(1);
  await expect(buy(pool, 'alice')).resolves.toMatchObject({ sessionId: firstId });

  // Fragment ends the login: the order that meets it fails, and the login leaves rotation.
  sandbox.fragment!.configure({ faults: { deadSessions: [ssidOf(first)] } });
  await expect(buy(pool, 'bob')).rejects.toMatchObject({ kind: 'SESSION_INVALID' });
  expect((await pool.logins()).find((login) => login.sessionId === firstId)).toMatchObject({ alive: false });

  // The operator writes the renewed login into the file: the same process picks it up.
  writeFileSync(file, `${renewed}\n`);
  await waitFor(() => pool.clients.some((client) => client.sessionId() !== firstId), { what: 'the renewed login' });
  const order = await buy(pool, 'dave');
  expect(order.sessionId).not.toBe(firstId);
  expect(order.result.reqId).toBeTruthy();
  // The replaced login is no longer listed; the renewed one is, alive.
  await waitFor(async () => !(await pool.states.all()).some((login) => login.sessionId === firstId), {
    what: 'the replaced login forgotten',
  });
  expect((await pool.logins()).map((login) => [login.sessionId, login.alive])).toEqual([[order.sessionId, true]]);
});
