/**
 * `starsgate fragment contract` (the npm bin, as `npx starsgate` runs it) against the Fragment
 * simulator: exit 0 and every item ok when the pages match, exit 1 naming the drifted item
 * otherwise (docs/fragment-protocol.md §19.5).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { demoFragmentCookies } from '@starsgate/sandbox/fragment';

jest.setTimeout(120_000);

const BIN = path.resolve(__dirname, '../node_modules/.bin/starsgate');
const SEED = `cli-contract-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: SEED, blockMs: 200, fragment: { latency: { minMs: 0, maxMs: 0 } } });
});

afterAll(async () => {
  await sandbox?.close();
});

function contract(json = false): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      BIN,
      ['fragment', 'contract', ...(json ? ['--json'] : [])],
      {
        env: {
          PATH: process.env.PATH,
          FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
          FRAGMENT_COOKIES: demoFragmentCookies(SEED, 1),
        },
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('exit 0 when fragment.com (here the simulator) matches, 1 naming the drift otherwise', async () => {
  const good = await contract();
  expect(good.stderr).toBe('');
  expect(good.code).toBe(0);
  expect(good.stdout).toMatch(/Premium months +ok/);
  expect(good.stdout).toMatch(/matches what starsgate relies on/);

  sandbox.fragment!.configure({ faults: { contractDrift: ['paymentMethods'] } });
  try {
    const drifted = await contract(true);
    expect(drifted.code).toBe(1);
    const report = JSON.parse(drifted.stdout) as { drift: number; findings: Array<{ item: string; holds: boolean }> };
    expect(report.drift).toBe(3);
    expect(report.findings.filter((f) => !f.holds).map((f) => f.item)).toEqual([
      '/stars/buy payment methods',
      '/premium/gift payment methods',
      '/premium/giveaway payment methods',
    ]);
  } finally {
    sandbox.fragment!.configure({ faults: { contractDrift: [] } });
  }
});

test('without FRAGMENT_BASE_URL it is a usage error (exit 2)', async () => {
  const result = await new Promise<{ code: number; stderr: string }>((resolve) => {
    execFile(BIN, ['fragment', 'contract'], { env: { PATH: process.env.PATH } }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
  expect(result.code).toBe(2);
  expect(result.stderr).toMatch(/FRAGMENT_BASE_URL is required/);
});
