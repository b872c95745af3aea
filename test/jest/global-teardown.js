const { changedDuringRun, trackedChanges } = require('./tracked-files');

module.exports = function trackedFilesUnchanged() {
  const before = globalThis.trackedChangesAtStart;
  const after = trackedChanges();
  if (!before || !after) return;
  const changed = changedDuringRun(before, after);
  if (changed.length > 0) {
    throw new Error(
      `The tests changed tracked files (tests write under os.tmpdir() or an ignored folder):\n  ${changed.join('\n  ')}\n` +
        `Restore them with: git checkout -- ${changed.join(' ')}`,
    );
  }
};
