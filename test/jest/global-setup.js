/**
 * The browser pages the gateway and the sandbox serve are built at build time, never by a running
 * process: build them (and the CLI) once before the tests, so tests that run the apps from their
 * sources serve the current pages without a full `npm run build`. Then note the tracked files
 * already changed, for the global teardown's check that the tests changed none.
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');
const recordTrackedChanges = require('./tracked-files-setup');

module.exports = function developmentBuilds() {
  execFileSync(process.execPath, [path.join(__dirname, '../../scripts/build/development-builds.mjs')], {
    stdio: 'inherit',
  });
  recordTrackedChanges();
};
