/**
 * The gateway's reads with FRAGMENT_READ_COOKIES unset fall back to the first paying login of
 * FRAGMENT_COOKIES (docs/configuration.md). Reads need no wallet (docs/fragment-protocol.md
 * §19.2), so the fallback leaves out `stel_ton_token`: a gateway sending it would take part in its
 * rotation (§20.2) with a jar of its own, outside the workers' cookie store, and push the token
 * the workers hold out of what Fragment accepts, so the paying login would turn up dead.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies } from '@starsgate/sandbox/fragment';
import { FragmentClient, RedisCookieStore } from '@starsgate/fragment';
import { loadGatewayConfig } from '../src/config';

const seed = `read-fallback-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;
let redis: Redis;

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    seed,
    demoWallets: false,
    fragment: { latency: { minMs: 0, maxMs: 0 }, faults: { rotateCookies: true } },
  });
  redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await sandbox?.close();
});

test('the read login taken from FRAGMENT_COOKIES carries no wallet token, and the workers stay logged in', async () => {
  const paying = demoFragmentCookies(seed);
  const baseUrl = `${sandbox.url}/fragment`;
  const config = loadGatewayConfig({ FRAGMENT_COOKIES: paying, FRAGMENT_BASE_URL: baseUrl });
  const readCookies = config.reads.fragment.cookies!;
  expect(readCookies).not.toMatch(/stel_ton_token/);
  expect(readCookies).toMatch(/stel_ssid=/);

  // A worker keeps the paying login's cookies in the shared store, as every worker does.
  const worker = new FragmentClient({
    baseUrl,
    cookies: paying,
    timeoutMs: 5_000,
    cookieStore: new RedisCookieStore(redis, { prefix: `test:cookies:${randomBytes(4).toString('hex')}:` }),
  });
  const gateway = new FragmentClient({ baseUrl, cookies: readCookies, timeoutMs: 5_000 });
  expect(await worker.sessionStatus()).toMatchObject({ loggedIn: true, walletLoggedIn: true });
  // Public reads load pages meanwhile (hash refreshes, prices, availability).
  for (let i = 0; i < 3; i += 1) expect((await gateway.sessionStatus()).apiHash).toBe(true);
  expect(await worker.sessionStatus()).toMatchObject({ loggedIn: true, walletLoggedIn: true });
});
