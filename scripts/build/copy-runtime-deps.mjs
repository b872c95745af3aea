#!/usr/bin/env node
/**
 * `node scripts/build/copy-runtime-deps.mjs <workspace folder> <out folder>`: copies into
 * `<out>/node_modules` exactly the installed npm packages the workspace's built bundle can load
 * (its production dependencies and their own dependencies, resolved through package-lock.json
 * the way Node resolves them), so an app's image carries its own runtime tree and nothing else:
 * no dev dependencies, no other app's packages. Run it where `npm ci --omit=dev` installed the
 * tree; it fails if a needed package is missing there.
 *   --link   hard-link the files instead of copying them (the deployment tests' image layouts, on
 *            the checkout's own filesystem: a quarter of a gigabyte per image not copied)
 */
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { readLock, root, runtimeLockKeys } from './workspaces.mjs';

const link = process.argv.includes('--link');
const [workspaceArg, outArg] = process.argv.slice(2).filter((arg) => arg !== '--link');
if (!workspaceArg || !outArg) throw new Error('usage: copy-runtime-deps.mjs [--link] <workspace folder> <out folder>');

/** A hard link, or a copy where `to` is on another filesystem than `from`. */
function linkOrCopy(from, to) {
  try {
    linkSync(from, to);
  } catch (error) {
    if (error.code !== 'EXDEV') throw error;
    copyFileSync(from, to);
  }
}

/** `source` into `target` as cpSync would, with each file a hard link to the original. */
function linkTree(source, target, filter) {
  mkdirSync(target, { recursive: true });
  for (const entry of readdirSync(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (!filter(from)) continue;
    if (entry.isDirectory()) linkTree(from, to, filter);
    else if (entry.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
    else linkOrCopy(from, to);
  }
}

const workspace = path.resolve(root, workspaceArg);
const out = path.resolve(outArg);
rmSync(path.join(out, 'node_modules'), { recursive: true, force: true });
// Parents first, so a nested node_modules lands inside its already-copied parent package.
const lock = readLock();
const keys = [...runtimeLockKeys(workspace, lock)].sort();
let copied = 0;
for (const key of keys) {
  const source = path.join(root, key);
  if (!existsSync(source)) {
    // An optional package for another platform (e.g. a prebuilt binary for macOS) is not installed.
    if (lock[key].optional) continue;
    throw new Error(`${key} is not installed: run npm ci --omit=dev first`);
  }
  const target = path.join(out, key);
  mkdirSync(path.dirname(target), { recursive: true });
  // Nested node_modules of this package are copied as their own keys (only those in the closure).
  const filter = (file) => !path.relative(source, file).split(path.sep).includes('node_modules');
  if (link) linkTree(source, target, filter);
  else cpSync(source, target, { recursive: true, filter });
  copied += 1;
}
process.stdout.write(
  `${path.relative(root, workspace)}: ${copied} packages → ${path.relative(process.cwd(), out) || '.'}\n`,
);
