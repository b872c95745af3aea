/** Notes the tracked files already changed, for the global teardown's check that the tests changed none. */
const { trackedChanges } = require('./tracked-files');

module.exports = function recordTrackedChanges() {
  globalThis.trackedChangesAtStart = trackedChanges();
};
