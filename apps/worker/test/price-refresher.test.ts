/**
 * The worker's price refresher against the real Fragment simulator and real Redis: it fills the
 * list the gateway serves, keeps the last known list when Fragment fails, and stops cleanly.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { createFragmentReads, FragmentClient } from '@starsgate/fragment';
import { createLogger, createRedisConnection } from '@starsgate/platform';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies, type FragmentConfigPatch } from '@starsgate/sandbox/fragment';
import { loadPriceRefresherConfig, startPriceRefresher, type PriceRefresher } from '../src/prices/price-refresher';

const SEED = 'worker-price-refresher';
let sandbox: StartedSandbox;
let redis: Redis;
let refresher: PriceRefresher | undefined;
const logger = createLogger({ service: 'worker', level: process.env.DEBUG_REFRESHER ? 'debug' : 'silent' });

const calls = (method: string) => sandbox.fragment?.stats().calls[method] ?? 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function client(): FragmentClient {
  return new FragmentClient({
    baseUrl: `${sandbox.url}/fragment`,
    cookies: demoFragmentCookies(SEED),
    timeoutMs: 5_000,
    retry: { maxTries: 1 },
  });
}

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    seed: SEED,
    blockMs: 50,
    demoWallets: false,
    fragment: { latency: { minMs: 0, maxMs: 0 } },
  });
  redis = createRedisConnection(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});

afterEach(async () => {
  await refresher?.stop();
  refresher = undefined;
  // `null` deletes the per-method faults (the simulator's mergeInto); then an empty set again.
  sandbox.fragment?.configure({ faults: { methods: null } } as unknown as FragmentConfigPatch);
  sandbox.fragment?.configure({ faults: { methods: {} } });
});

afterAll(async () => {
  await redis?.quit();
  await sandbox?.close();
});

it('reads its defaults and switches from the environment', () => {
  expect(loadPriceRefresherConfig({})).toEqual({ intervalMs: 60_000, redisPrefix: 'starsgate:reads:', enabled: true });
  expect(
    loadPriceRefresherConfig({ PRICES_REFRESH_INTERVAL_SECONDS: '5', PRICES_REFRESH_ENABLED: 'false' }),
  ).toMatchObject({ intervalMs: 5_000, enabled: false });
  expect(() => loadPriceRefresherConfig({ PRICES_REFRESH_INTERVAL_SECONDS: '0' })).toThrow(
    /PRICES_REFRESH_INTERVAL_SECONDS/,
  );
});

it('keeps the list warm: the gateway side then answers without asking Fragment', async () => {
  const prefix = `test-${randomBytes(4).toString('hex')}:reads:`;
  refresher = startPriceRefresher({ redis, logger, intervalMs: 150, redisPrefix: prefix, fragment: client() });
  const first = await refresher.refreshNow();
  expect(first?.references.stars?.['50']).toEqual({ gramNano: '441200000', usdtUnits: '750000' });
  expect(first?.references.premium?.['6']).toEqual({ gramNano: '9405900000', usdtUnits: '15990000' });

  // The interval keeps refreshing (a replica skips a turn when the list is younger than half of it).
  const before = calls('updateStarsPrices');
  await sleep(700);
  expect(calls('updateStarsPrices') - before).toBeGreaterThanOrEqual(2);

  // What the gateway builds over the same prefix: list and 50-star quote are cache hits.
  const gateway = createFragmentReads({ fragment: client(), redis, prefix });
  await refresher.stop();
  const idle = { stars: calls('updateStarsPrices'), premium: calls('GET /premium/gift') };
  const list = await gateway.prices.list();
  expect(list).toMatchObject({
    stale: false,
    byProduct: {
      stars: { '50': { gram: '0.4412', usdt: '0.75' } },
      premium: { '12': { gram: '17.053', usdt: '28.99' } },
    },
  });
  expect((await gateway.prices.quote('stars', 50)).prices).toEqual({ gram: '0.4412', usdt: '0.75' });
  expect({ stars: calls('updateStarsPrices'), premium: calls('GET /premium/gift') }).toEqual(idle);
});

it('a failed refresh keeps the last known list and logs no credential', async () => {
  const prefix = `test-${randomBytes(4).toString('hex')}:reads:`;
  const lines: string[] = [];
  const capture = {
    info: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? {})),
    warn: (m: string, meta?: unknown) => lines.push(m + JSON.stringify(meta ?? {})),
    debug: () => undefined,
  };
  refresher = startPriceRefresher({
    redis,
    logger: capture as never,
    intervalMs: 60_000,
    redisPrefix: prefix,
    fragment: client(),
  });
  const good = await refresher.refreshNow();
  expect(good).toBeDefined();
  sandbox.fragment?.configure({ faults: { methods: { updateStarsPrices: { serverErrorRate: 1 } } } });
  expect(await refresher.refreshNow()).toBeUndefined();
  const stored = JSON.parse((await redis.get(`${prefix}prices:list`)) ?? '{}') as { fetchedAt: number };
  expect(stored.fetchedAt).toBe(good?.fetchedAt);
  expect(lines.some((line) => line.includes('price refresh failed'))).toBe(true);
  const cookies = demoFragmentCookies(SEED);
  for (const value of cookies
    .split('; ')
    .map((pair) => pair.split('=')[1] ?? '')
    .filter((value) => value.length >= 8)) {
    expect(lines.join('\n')).not.toContain(value);
  }
});

it('stop() ends the schedule', async () => {
  const prefix = `test-${randomBytes(4).toString('hex')}:reads:`;
  refresher = startPriceRefresher({ redis, logger, intervalMs: 50, redisPrefix: prefix, fragment: client() });
  await refresher.refreshNow();
  await refresher.stop();
  const after = calls('updateStarsPrices');
  await sleep(300);
  expect(calls('updateStarsPrices')).toBe(after);
});
