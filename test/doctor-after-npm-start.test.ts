/**
 * A newcomer runs `npm start`, then `npm run doctor` in another terminal with nothing configured:
 * the doctor checks the environment `npm start` wrote to `.data/sandbox.env` (mode 0600), says
 * so, and passes against the sandbox (before, it failed on empty FRAGMENT_COOKIES and
 * FRAGMENT_RECEIVING_ADDRESSES). The stack a test starts writes its sandbox.env into its own
 * temporary folder, never over the developer's `.data/sandbox.env` (issue 40 §1).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { startStack, type RunningStack } from './support/running-stack';

jest.setTimeout(300_000);

const ROOT = path.resolve(__dirname, '..');
const DEVELOPERS_SANDBOX_ENV = path.join(ROOT, '.data', 'sandbox.env');
let stack: RunningStack;
let home: string;
let developersSandboxEnv: string | undefined;

const readIfPresent = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined);

beforeAll(async () => {
  developersSandboxEnv = readIfPresent(DEVELOPERS_SANDBOX_ENV);
  // As the other suites start it: the stack's own temporary folder is the newcomer's checkout.
  stack = await startStack();
  home = stack.home;
});

afterAll(async () => {
  await stack?.stop();
});

test("the test stack's sandbox.env is in its own folder; the developer's .data/sandbox.env is untouched", () => {
  expect(stack.dataDir).toBe(path.join(home, '.data'));
  expect(existsSync(path.join(stack.dataDir, 'sandbox.env'))).toBe(true);
  expect(readIfPresent(DEVELOPERS_SANDBOX_ENV)).toBe(developersSandboxEnv);
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
