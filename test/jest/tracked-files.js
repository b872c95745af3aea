/**
 * Tests never write into the repository's tracked files (a browser test once rewrote
 * docs/screenshots/checkout.png on every run). The global setup records which tracked files differ
 * from HEAD, with their content hashes; the global teardown fails the run if that changed.
 * `npm run screenshots` writes the README's screenshots on purpose: SCREENSHOTS_DIR is exempt.
 */
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { existsSync, readFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '../..');

/** Tracked files that differ from HEAD, each with a hash of its content; undefined outside a git checkout. */
function trackedChanges() {
  let status;
  try {
    status = execFileSync('git', ['status', '--porcelain=v1', '-z', '--untracked-files=no'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
  const changes = new Map();
  const entries = status.split('\0');
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index];
    if (!entry) continue;
    // A rename or copy is followed by its source path.
    if (entry[0] === 'R' || entry[0] === 'C') index += 1;
    const file = entry.slice(3);
    const full = path.join(ROOT, file);
    changes.set(file, existsSync(full) ? createHash('sha1').update(readFileSync(full)).digest('hex') : 'deleted');
  }
  return changes;
}

/** The tracked files whose content a run changed (outside SCREENSHOTS_DIR when that is set). */
function changedDuringRun(before, after) {
  const exempt = process.env.SCREENSHOTS_DIR ? path.resolve(process.env.SCREENSHOTS_DIR) + path.sep : undefined;
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((file) => before.get(file) !== after.get(file))
    .filter((file) => !exempt || !path.join(ROOT, file).startsWith(exempt))
    .sort();
}

module.exports = { trackedChanges, changedDuringRun };
