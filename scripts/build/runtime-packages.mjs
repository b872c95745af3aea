#!/usr/bin/env node
/**
 * `node scripts/build/runtime-packages.mjs <workspace folder>…`: the npm packages each workspace's
 * image installs (copy-runtime-deps.mjs copies exactly these), as JSON
 * `{ "<workspace>": ["name@version", …] }`, for the tests and for an operator's review.
 */
import path from 'node:path';
import { readLock, root, runtimeLockKeys } from './workspaces.mjs';

const lock = readLock();
const result = {};
for (const workspace of process.argv.slice(2)) {
  const keys = [...runtimeLockKeys(path.resolve(root, workspace), lock)];
  result[workspace] = keys
    .map((key) => `${key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)}@${lock[key].version}`)
    .sort();
}
process.stdout.write(JSON.stringify(result));
