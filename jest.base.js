/**
 * The jest settings every workspace shares. Each workspace's `npm test` (a turbo `test` task, cached
 * per workspace) runs jest.workspace.js from its own folder; the root's jest.config.js gathers every
 * workspace as a jest project, for `npx jest <path>` from the root.
 */
const { readdirSync, existsSync } = require('node:fs');
const path = require('node:path');

const ROOT = __dirname;
const WORKSPACE_PARENTS = ['apps', 'packages', 'tools'];

// Transpile only (isolatedModules in tsconfig.base.json): tsc type-checks every workspace once (npm test runs it first), so ts-jest
// skips per-file type-checking. (@swc/jest would be faster, but its platform binaries are not all
// on the package registry our machines use, which breaks `npm ci`.)
const tsJest = ['ts-jest', { diagnostics: false }];

/** The jest project of one workspace folder (the root's own test/ included): its test/ suites. */
function workspaceProject(dir) {
  return {
    displayName: dir === ROOT ? 'root' : path.relative(ROOT, dir),
    rootDir: dir,
    // Only test/ is crawled for suites: the root's rootDir is the whole repository.
    roots: ['<rootDir>/test'],
    testEnvironment: 'node',
    transform: { '^.+\\.ts$': tsJest },
    // ESM-ready sources (packages/sdk) import './x.js'; under jest that is the .ts file beside it.
    moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
    testMatch: ['<rootDir>/test/**/*.test.ts'],
    setupFiles: [path.join(ROOT, 'jest.setup.js')],
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
