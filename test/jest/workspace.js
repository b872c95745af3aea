/**
 * One workspace's tests (`npm test -w <workspace>`, the turbo `test` task; the root's `test:root`
 * for test/): jest from the workspace's folder. Turbo builds the pages and bundles the tests run
 * before this task (turbo.json), so only the tracked-files check wraps the run.
 *
 * Timing suites (`*.timing.test.ts`) bound how long something takes (an event-loop gap, an answer
 * under a flood): `npm test` runs them in a second phase, one suite per jest run and two runs at a
 * time, on a machine the other suites no longer load (the `test:timing` task, JEST_SUITES=timing).
 * Every other run leaves them out.
 */
const path = require('node:path');
const { workspaceProject, runSettings } = require('./base');

const TIMING_SUITE = '\\.timing\\.test\\.ts$';
module.exports = {
  ...runSettings,
  ...workspaceProject(process.cwd()),
  ...(process.env.JEST_SUITES === 'timing'
    ? { testMatch: ['<rootDir>/test/**/*.timing.test.ts'], maxWorkers: 1 }
    : { testPathIgnorePatterns: ['/node_modules/', TIMING_SUITE] }),
  globalSetup: path.join(__dirname, 'tracked-files-setup.js'),
  globalTeardown: path.join(__dirname, 'global-teardown.js'),
};
