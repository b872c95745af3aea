/**
 * A newcomer runs `npm start`, then `npm run doctor` in another terminal with nothing configured:
 * the doctor checks the environment `npm start` wrote to `.data/sandbox.env` (mode 0600), says
 * so, and passes against the sandbox (before, it failed on empty FRAGMENT_COOKIES and
 * FRAGMENT_RECEIVING_ADDRESSES).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type RunningStack } from './support/running-stack';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..');
let home: string;
let stack: RunningStack | undefined;

beforeAll(async () => {
  home = mkdtempSync(path.join(tmpdir(), 'starsgate-newcomer-'));
  stack = await startStack({ STARSGATE_DATA_DIR: path.join(home, '.data') });
});

afterAll(async () => {
  await stack?.stop();
  rmSync(home, { recursive: true, force: true });
});

test('`npm run doctor` with a clean environment uses .data/sandbox.env and passes', async () => {
  const file = path.join(home, '.data', 'sandbox.env');
  expect(statSync(file).mode & 0o777).toBe(0o600);
  // A clean environment in the newcomer's folder: no starsgate variable at all.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href,
      path.join(ROOT, 'apps/worker/src/doctor/main.ts'),
    ],
    { cwd: home, env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home } },
  ).catch((error: { code: number; stdout: string; stderr: string }) => {
    throw new Error(`the doctor exited ${error.code}:\n${error.stdout}\n${error.stderr}`);
  });
  expect(stdout).toContain('checking the environment `npm start` wrote to .data/sandbox.env');
  expect(stdout).toMatch(/\[ok {2}\] FRAGMENT_RECEIVING_ADDRESSES/);
  expect(stdout).toMatch(/\[ok {2}\] Fragment session 1/);
  expect(stdout).toMatch(/\d+ ok, \d+ warn, 0 fail/);
});
