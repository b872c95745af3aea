/**
 * When a service's bundle counts as fresh: newer than every file its build reads (the app's sources
 * and pages, the workspace packages' sources, the migrations), whatever else changes beside them.
 * On a checkout of its own in a temporary folder: touching this one's sources would make every
 * suite running in parallel rebuild.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleEntry, bundleIsFresh, ENTRYPOINTS, SOURCE_ENTRYPOINTS } from '../src/entrypoints';

let root: string;
const at = (seconds: number) => new Date(1_900_000_000_000 + seconds * 1000);

/** Writes `file` under the temporary checkout with the given modification time. */
function write(file: string, seconds: number): void {
  const full = path.join(root, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, '');
  utimesSync(full, at(seconds), at(seconds));
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'starsgate-entrypoints-'));
  write('apps/worker/src/main.ts', 0);
  write('packages/domain/src/index.ts', 0);
  write('packages/db/migrations/0000_init.sql', 0);
  write(ENTRYPOINTS.worker, 10);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

it('is fresh when built after every input, and missing is not fresh', () => {
  expect(bundleIsFresh('worker', root)).toBe(true);
  expect(bundleIsFresh('gateway', root)).toBe(false);
});

it.each([
  'apps/worker/src/steps/queued.ts',
  'apps/worker/web/page.css',
  'packages/domain/src/products/gram.ts',
  'packages/db/migrations/meta/_journal.json',
  'packages/db/migrations/0001_next.sql',
])('is stale once %s is newer than the bundle', (file) => {
  write(file, 20);
  expect(bundleIsFresh('worker', root)).toBe(false);
});

it.each([
  'packages/sdk-python/src/starsgate/__pycache__/_client.cpython-311.pyc',
  'apps/worker/test/new.test.ts',
  'apps/gateway/src/main.ts',
  'packages/domain/README.md',
])('stays fresh when %s changes: no build of the worker reads it', (file) => {
  write(file, 20);
  expect(bundleIsFresh('worker', root)).toBe(true);
});

describe('bundleEntry', () => {
  it("reads the entry and the bundle from the workspace's build script", () => {
    writeFileSync(
      path.join(root, 'apps/worker/package.json'),
      JSON.stringify({ scripts: { build: 'node ../../scripts/build/bundle.mjs src/cli/run.ts && echo done' } }),
    );
    expect(bundleEntry('apps/worker', root)).toEqual({
      source: 'apps/worker/src/cli/run.ts',
      bundle: 'apps/worker/dist/run.js',
    });
  });

  it('refuses a workspace whose build does not bundle', () => {
    writeFileSync(path.join(root, 'apps/worker/package.json'), JSON.stringify({ scripts: { build: 'tsc' } }));
    expect(() => bundleEntry('apps/worker', root)).toThrow(/does not run scripts\/build\/bundle\.mjs/);
  });

  it("names this checkout's services as their build scripts do", () => {
    expect(ENTRYPOINTS).toEqual({
      gateway: 'apps/gateway/dist/main.js',
      worker: 'apps/worker/dist/main.js',
      sandbox: 'apps/sandbox/dist/main.js',
    });
    expect(SOURCE_ENTRYPOINTS.sandbox).toBe('apps/sandbox/src/main.ts');
  });
});
