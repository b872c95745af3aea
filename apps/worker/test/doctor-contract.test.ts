/**
 * `npm run doctor -- --contract` against the Fragment simulator (docs/fragment-protocol.md §19.5):
 * every item holds on the pages as Fragment shows them (exit 0), each drift fails its own item
 * (exit non-zero), and the check creates no order.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies } from '@starsgate/sandbox/fragment';
import { FragmentClient, RedisCookieStore } from '@starsgate/fragment';
import { Redis } from 'ioredis';
import { doctorExitCode } from '../src/doctor/doctor';
import { runContractCheck } from '../src/doctor/contract-checks';
import type { CheckResult } from '../src/doctor/check';

jest.setTimeout(120_000);

const SEED = `contract-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: SEED, blockMs: 200, fragment: { latency: { minMs: 0, maxMs: 0 } } });
  env = {
    NODE_ENV: 'test',
    FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
    FRAGMENT_COOKIES: demoFragmentCookies(SEED, 1),
    TONCENTER_URL: `${sandbox.url}/toncenter`,
  };
});

afterAll(async () => {
  await sandbox?.close();
});

afterEach(() => {
  sandbox.fragment!.configure({ faults: { contractDrift: [], historyMarkup: 'table', rotateCookies: false } });
});

const failed = (results: CheckResult[]) => results.filter((r) => r.status === 'fail').map((r) => r.item);
const initCalls = () =>
  Object.entries(sandbox.fragment!.stats().calls)
    .filter(([method]) => /^init|Link$|^confirm/i.test(method))
    .reduce((sum, [, count]) => sum + count, 0);

test('the pages as Fragment shows them hold every item, and no order is created', async () => {
  const before = initCalls();
  const results = await runContractCheck(env);
  expect(failed(results)).toEqual([]);
  expect(doctorExitCode(results)).toBe(0);
  expect(results.map((r) => r.item)).toEqual([
    'contract /stars/buy API hash',
    'contract /premium/gift API hash',
    'contract /ads/topup API hash',
    'contract /premium/giveaway API hash',
    'contract Stars limits',
    'contract Premium months',
    'contract /stars/buy payment methods',
    'contract /premium/gift payment methods',
    'contract /premium/giveaway payment methods',
    'contract /stars/history shape',
    'contract /premium/history shape',
    'contract /ads/history shape',
  ]);
  expect(results.find((r) => r.item === 'contract Stars limits')?.detail).toMatch(/^Fragment: 50 to 1000000/);
  expect(initCalls()).toBe(before);
});

test.each([
  [
    'apiHash',
    [
      'contract /stars/buy API hash',
      'contract /premium/gift API hash',
      'contract /ads/topup API hash',
      'contract /premium/giveaway API hash',
    ],
  ],
  ['starsLimits', ['contract Stars limits']],
  ['premiumMonths', ['contract Premium months']],
  [
    'paymentMethods',
    [
      'contract /stars/buy payment methods',
      'contract /premium/gift payment methods',
      'contract /premium/giveaway payment methods',
    ],
  ],
] as const)('the %s drift fails its items', async (drift, items) => {
  sandbox.fragment!.configure({ faults: { contractDrift: [drift] } });
  const results = await runContractCheck(env);
  // Without the API hash the history pages cannot be read either; the other drifts fail alone.
  if (drift === 'apiHash') expect(failed(results)).toEqual(expect.arrayContaining([...items]));
  else expect(failed(results)).toEqual(items);
  expect(doctorExitCode(results)).toBe(1);
});

test('a history page whose markup changed fails its shape', async () => {
  sandbox.fragment!.configure({ faults: { historyMarkup: 'changed' } });
  const results = await runContractCheck(env);
  expect(failed(results)).toEqual(expect.arrayContaining(['contract /stars/history shape']));
});

test('`npm run doctor -- --contract` exits 0 on a match and non-zero on drift', async () => {
  const run = () =>
    promisify(execFile)('npm', ['run', '--silent', 'doctor', '--', '--contract'], {
      cwd: path.join(__dirname, '..', '..', '..'),
      env: { ...process.env, ...env },
    }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
    );
  const good = await run();
  expect(good.code).toBe(0);
  expect(good.stdout).toMatch(/\[ok {2}\] contract Premium months/);
  sandbox.fragment!.configure({ faults: { contractDrift: ['premiumMonths'] } });
  const drifted = await run();
  expect(drifted.code).not.toBe(0);
  expect(drifted.stdout).toMatch(/\[FAIL\] contract Premium months: Fragment: \{3, 6\}/);
});

test("the hourly check leaves the paying login's rotating wallet token to the workers (§20.2)", async () => {
  // Fragment rotates stel_ton_token on every page and refuses one two rotations old. The workers
  // keep the current one in their shared store; the check reads pages and history without it.
  sandbox.fragment!.configure({ faults: { rotateCookies: true } });
  const redis = new Redis(process.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
  try {
    const worker = new FragmentClient({
      baseUrl: env.FRAGMENT_BASE_URL!,
      cookies: env.FRAGMENT_COOKIES!,
      timeoutMs: 5_000,
      cookieStore: new RedisCookieStore(redis, { prefix: `test:cookies:${randomBytes(4).toString('hex')}:` }),
    });
    expect(await worker.sessionStatus()).toMatchObject({ loggedIn: true, walletLoggedIn: true });
    expect(failed(await runContractCheck(env))).toEqual([]);
    expect(await worker.sessionStatus()).toMatchObject({ loggedIn: true, walletLoggedIn: true });
  } finally {
    redis.disconnect();
  }
});
