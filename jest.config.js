/**
 * `npx jest [path]` from the root: every workspace as a jest project (jest.base.js), the browser
 * pages and the CLI built once first (jest.global-setup.js). `npm test` runs each workspace's
 * jest.workspace.js through turbo instead, so an unchanged workspace's tests come from its cache.
 */
const path = require('node:path');
const { workspaceProject, workspacesWithTests, runSettings } = require('./jest.base');

module.exports = {
  ...runSettings,
  projects: workspacesWithTests().map(workspaceProject),
  globalSetup: path.join(__dirname, 'jest.global-setup.js'),
  globalTeardown: path.join(__dirname, 'jest.global-teardown.js'),
};
