/**
 * The jest settings every workspace shares. Each workspace's `npm test` (a turbo `test` task, cached
 * per workspace) runs test/jest/workspace.js from its own folder; the root's jest.config.js gathers every
 * workspace as a jest project, for `npx jest <path>` from the root.
 */
const { readdirSync, existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');
const WORKSPACE_PARENTS = ['apps', 'packages', 'tools'];

// Types are stripped, not checked: `npm test` type-checks every workspace first (tsc), so each test
// file only needs its JavaScript (esbuild-transform.js).
const TRANSFORM = path.join(__dirname, 'esbuild-transform.js');

/** The jest project of one workspace folder (the root's own test/ included): its test/ suites. */
function workspaceProject(dir) {
  return {
    displayName: dir === ROOT ? 'root' : path.relative(ROOT, dir),
    rootDir: dir,
    // Only test/ is crawled for suites: the root's rootDir is the whole repository.
    roots: ['<rootDir>/test'],
    testEnvironment: path.join(__dirname, 'environment.js'),
    transform: { '^.+\\.ts$': TRANSFORM },
    // ESM-ready sources (packages/sdk) import './x.js'; under jest that is the .ts file beside it.
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    setupFiles: [path.join(__dirname, 'setup.js')],
  };
}

/** Every workspace folder with a test/ folder, then the root (its cross-cutting suites). */
function workspacesWithTests() {
  const dirs = WORKSPACE_PARENTS.flatMap((parent) =>
    readdirSync(path.join(ROOT, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(ROOT, parent, entry.name))
      .filter((dir) => existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'test'))),
  );
  return [...dirs, ROOT];
}

/** What a whole jest run sets (not per project). */
const runSettings = {
  testTimeout: 60_000,
  maxWorkers: 2,
};

module.exports = { ROOT, workspaceProject, workspacesWithTests, runSettings };
