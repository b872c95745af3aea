/** One jest run for every workspace: `npm test` at the root. */
// Transpile only (isolatedModules in tsconfig.base.json): tsc type-checks every workspace once (npm test runs it first), so ts-jest
// skips per-file type-checking. (@swc/jest would be faster, but its platform binaries are not all
// on the package registry our machines use, which breaks `npm ci`.)
const tsJest = ['ts-jest', { diagnostics: false }];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': tsJest },
  // ESM-ready sources (packages/sdk) import './x.js'; under jest that is the .ts file beside it.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/{apps,packages,tools}/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/jest.setup.js'],
  globalSetup: '<rootDir>/jest.global-setup.js',
  globalTeardown: '<rootDir>/jest.global-teardown.js',
};
