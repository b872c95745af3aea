/**
 * One workspace's tests (`npm test -w <workspace>`, the turbo `test` task; the root's `test:root`
 * for test/): jest from the workspace's folder. Turbo builds the pages and bundles the tests run
 * before this task (turbo.json), so only the tracked-files check wraps the run.
 */
const path = require('node:path');
const { workspaceProject, runSettings } = require('./jest.base');

module.exports = {
  ...runSettings,
  ...workspaceProject(process.cwd()),
  globalSetup: path.join(__dirname, 'jest.tracked-files-setup.js'),
  globalTeardown: path.join(__dirname, 'jest.global-teardown.js'),
};
