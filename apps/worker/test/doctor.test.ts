/**
 * `npm run doctor` against the running sandbox (local chain + Fragment simulator), real
 * PostgreSQL and Redis: every item passes (exit 0), and each fault makes the doctor exit non-zero
 * naming its item: dead login cookies, a provider of another network, missing migrations, a
 * receiving address that is no active account, a history page whose markup changed.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Address } from '@ton/core';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies } from '@starsgate/sandbox/fragment';
import { doctorExitCode, runDoctor } from '../src/doctor/doctor';
import type { CheckResult } from '../src/doctor/check';
import { PRODUCT_REGISTRY, PRODUCTS, type Product } from '@starsgate/domain';

jest.setTimeout(120_000);

const SEED = `doctor-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;
let database: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: SEED, blockMs: 200, fragment: { latency: { minMs: 0, maxMs: 0 } } });
  database = await createTestDatabase();
  const receivers = sandbox.fragment!.receivingAddresses;
  env = {
    NODE_ENV: 'test',
    DATABASE_URL: database.url,
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    STARSGATE_SECRET_KEY: `k1:${randomBytes(32).toString('base64')}`,
    TON_NETWORK: 'mainnet',
    FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
    FRAGMENT_COOKIES: demoFragmentCookies(SEED, 2),
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    USDT_MASTER_ADDRESS: sandbox.chain.usdtMaster.toString(),
    FRAGMENT_RECEIVING_ADDRESSES: [receivers.stars, receivers.premium].map((a) => a.toRawString()).join(','),
  };
});

afterAll(async () => {
  await database?.drop();
  await sandbox?.close();
});

const failed = (results: CheckResult[]) => results.filter((r) => r.status === 'fail').map((r) => r.item);

test('the sandbox passes every item: exit 0', async () => {
  const results = await runDoctor(env);
  expect(failed(results)).toEqual([]);
  expect(doctorExitCode(results)).toBe(0);
  const items = results.map((r) => r.item).join('\n');
  for (const item of [
    'STARSGATE_SECRET_KEY',
    'PostgreSQL',
    'migrations',
    'Redis',
    'chain provider latency',
    'chain provider network',
    'chain provider rate limit',
    'FRAGMENT_RECEIVING_ADDRESSES',
    'Fragment session 1',
    'Fragment session 2',
    'login',
    'wallet',
    'identity',
    'linked wallet',
    'wallet verified',
    'stars history',
    'premium history',
    // Every product's price, each read the way its Fragment pack names it.
    ...PRODUCTS.map((product) => `${PRODUCT_REGISTRY[product].title} prices`),
  ])
    expect(items).toContain(item);
  for (const product of PRODUCTS)
    expect(results.filter((r) => r.item.endsWith(` ${PRODUCT_REGISTRY[product].title} prices`))).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ status: 'ok', detail: expect.stringMatching(/\S/) as string }),
      ]),
    );
});

test("every product's price is checked, read the way its pack says Fragment names it", async () => {
  // A Record over Product: a product added to the registry without its expected check does not compile.
  const expected: Record<Product, RegExp> = {
    stars: /^50 Telegram Stars = \d+(\.\d+)? GRAM \(\$\d+(\.\d+)?\)$/,
    premium:
      /^Telegram Premium for 3 months = .* GRAM .*, Telegram Premium for 6 months = .*, Telegram Premium for 1 year = .* GRAM/,
    gram: /^priced at face value .*its page loads$/,
    premium_giveaway: /^Telegram Premium for 3 months for 1 winner = \d+(\.\d+)? GRAM/,
  };
  const results = await runDoctor(env);
  for (const product of PRODUCTS) {
    const checks = results.filter((r) => r.item.endsWith(` ${PRODUCT_REGISTRY[product].title} prices`));
    // Each paying login and the read login.
    expect(checks.length).toBeGreaterThanOrEqual(2);
    for (const check of checks)
      expect(check).toMatchObject({ status: 'ok', detail: expect.stringMatching(expected[product]) });
  }
});

test('`npm run doctor` exits 0 against the sandbox, and non-zero naming the item on a wrong network', async () => {
  const run = (extra: Record<string, string>) =>
    promisify(execFile)('npm', ['run', '--silent', 'doctor'], {
      cwd: path.join(__dirname, '..', '..', '..'),
      env: { ...process.env, ...env, ...extra },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  const good = await run({});
  expect(good.code).toBe(0);
  expect(good.stdout).toMatch(/0 fail/);
  const wrong = await run({ TON_NETWORK: 'testnet' });
  expect(wrong.code).not.toBe(0);
  expect(wrong.stdout).toMatch(/\[FAIL\] chain provider network: the provider serves mainnet .*TON_NETWORK is testnet/);
});

test('broken cookies: the session fails by name', async () => {
  const cookies = demoFragmentCookies(SEED, 2)
    .split('|')[0]!
    .replace(/stel_token=[^;]+/, `stel_token=${'0'.repeat(64)}`);
  const results = await runDoctor({ ...env, FRAGMENT_COOKIES: cookies });
  expect(doctorExitCode(results)).toBe(1);
  expect(failed(results)).toEqual([expect.stringMatching(/^Fragment session 1 \(\w+\) login$/) as string]);
});

test.each(['cloudflareBlock', 'cloudflareChallenge'] as const)(
  '%s: "blocked by Cloudflare: use a proxy", not dead cookies',
  async (fault) => {
    sandbox.fragment!.configure({ faults: { [fault]: true } });
    try {
      const results = await runDoctor(env);
      expect(doctorExitCode(results)).toBe(1);
      const sessions = results.filter((r) => r.item.startsWith('Fragment session'));
      expect(sessions.map((r) => r.item)).toEqual([
        expect.stringMatching(/^Fragment session 1 \(\w+\) page$/),
        expect.stringMatching(/^Fragment session 2 \(\w+\) page$/),
      ]);
      for (const result of sessions) {
        expect(result.detail).toMatch(/^blocked by Cloudflare: use a proxy/);
        expect(result.action).toMatch(/FRAGMENT_PROXY_URL/);
        expect(result.action).not.toMatch(/FRAGMENT_COOKIES/);
      }
    } finally {
      sandbox.fragment!.configure({ faults: { [fault]: false } });
    }
  },
);

test('the profile: identity verified and the linked wallet with its address, read from /my/profile', async () => {
  const results = await runDoctor(env);
  const item = (name: string) => results.find((r) => r.item.startsWith('Fragment session 1') && r.item.endsWith(name));
  expect(item(' identity')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/Identity Verified/) });
  expect(item(' linked wallet')).toMatchObject({ status: 'ok', detail: expect.stringMatching(/^UQ[\w-]{46}$/) });
  expect(item(' wallet verified')).toMatchObject({ status: 'ok' });
  expect(results.some((r) => /KYC/.test(r.item))).toBe(false);
});

test('an account before KYC: identity fails with the way to verify it, wallet verified warns', async () => {
  sandbox.fragment!.configure({ faults: { profileBadges: 'unverified' } });
  try {
    const results = await runDoctor(env);
    expect(doctorExitCode(results)).toBe(1);
    const identity = results.find((r) => /session 1 .*identity$/.test(r.item));
    expect(identity).toMatchObject({ status: 'fail', detail: expect.stringMatching(/^not verified/) });
    expect(identity?.action).toMatch(/kyc\/account/);
    expect(results.find((r) => /session 1 .*wallet verified$/.test(r.item))).toMatchObject({ status: 'warn' });
    expect(results.find((r) => /session 1 .*linked wallet$/.test(r.item))).toMatchObject({ status: 'ok' });
  } finally {
    sandbox.fragment!.configure({ faults: { profileBadges: 'verified' } });
  }
});

test('no wallet connected: the paying login fails on its wallet alone, the read login needs none', async () => {
  const [first, second] = demoFragmentCookies(SEED, 2)
    .split('|')
    .map((c) => c.trim());
  const withoutWallet = (cookies: string) => cookies.replace(/;\s*stel_ton_token=[^;]+/, '');
  const results = await runDoctor({
    ...env,
    FRAGMENT_COOKIES: withoutWallet(first!),
    FRAGMENT_READ_COOKIES: withoutWallet(second!),
  });
  expect(failed(results)).toEqual([
    expect.stringMatching(/^Fragment session 1 \(\w+\) wallet$/),
    expect.stringMatching(/^Fragment session 1 \(\w+\) linked wallet$/),
  ]);
  expect(results.find((r) => /session 1 .*login$/.test(r.item))).toMatchObject({ status: 'ok' });
  expect(results.find((r) => /session 1 .*\) wallet$/.test(r.item))?.detail).toMatch(/^no wallet connected/);
  const read = results.filter((r) => r.item.startsWith('Fragment read login'));
  expect(read.map((r) => r.item.replace(/\(\w+\) /, ''))).toEqual([
    'Fragment read login page',
    'Fragment read login login',
    'Fragment read login wallet',
    ...PRODUCTS.map((product) => `Fragment read login ${PRODUCT_REGISTRY[product].title} prices`),
  ]);
  expect(read.every((r) => r.status === 'ok')).toBe(true);
});

test('a history page whose markup changed fails as not parseable', async () => {
  sandbox.fragment!.configure({ faults: { historyMarkup: 'changed' } });
  try {
    const results = await runDoctor(env);
    expect(doctorExitCode(results)).toBe(1);
    expect(results.find((r) => /session 1 .*stars history/.test(r.item))).toMatchObject({ status: 'fail' });
  } finally {
    sandbox.fragment!.configure({ faults: { historyMarkup: 'table' } });
  }
});

test('a receiving address that is no active account, a malformed key, missing migrations', async () => {
  const nobody = new Address(0, randomBytes(32)).toRawString();
  const other = await createTestDatabase();
  try {
    await other.pool.query(
      'DELETE FROM drizzle.__drizzle_migrations WHERE id = (SELECT max(id) FROM drizzle.__drizzle_migrations)',
    );
    const results = await runDoctor({
      ...env,
      FRAGMENT_RECEIVING_ADDRESSES: `${env.FRAGMENT_RECEIVING_ADDRESSES},${nobody}`,
      STARSGATE_SECRET_KEY: 'k1:not-base64!',
      DATABASE_URL: other.url,
    });
    expect(doctorExitCode(results)).toBe(1);
    const items = failed(results);
    expect(items).toContain('STARSGATE_SECRET_KEY');
    expect(items).toContain('migrations');
    expect(items.filter((item) => item.startsWith('FRAGMENT_RECEIVING_ADDRESSES'))).toHaveLength(1);
  } finally {
    await other.drop();
  }
});
