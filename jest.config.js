/**
 * `npx jest [path]` from the root: every workspace as a jest project (test/jest/base.js), the browser
 * pages and the CLI built once first (test/jest/global-setup.js). `npm test` runs each workspace's
 * test/jest/workspace.js through turbo instead, so an unchanged workspace's tests come from its cache.
 */
const path = require('node:path');
const { workspaceProject, workspacesWithTests, runSettings } = require('./test/jest/base');

module.exports = {
  ...runSettings,
  projects: workspacesWithTests().map(workspaceProject),
  globalSetup: path.join(__dirname, 'test/jest/global-setup.js'),
  globalTeardown: path.join(__dirname, 'test/jest/global-teardown.js'),
};
