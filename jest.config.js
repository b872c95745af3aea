/** One jest run for every workspace: `npm test` at the root. */
const swc = ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }];

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  testMatch: ['<rootDir>/{apps,packages}/*/test/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 60_000,
  maxWorkers: 2,
  setupFiles: ['<rootDir>/jest.setup.js'],
};
