#!/usr/bin/env node
/**
 * `node scripts/build/copy-runtime-deps.mjs <workspace folder> <out folder>`: copies into
 * `<out>/node_modules` exactly the installed npm packages the workspace's built bundle can load
 * (its production dependencies and their own dependencies, resolved through package-lock.json
 * the way Node resolves them), so an app's image carries its own runtime tree and nothing else:
 * no dev dependencies, no other app's packages. Run it where `npm ci --omit=dev` installed the
 * tree; it fails if a needed package is missing there.
 */
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { readLock, root, runtimeLockKeys } from './workspaces.mjs';

const [workspaceArg, outArg] = process.argv.slice(2);
if (!workspaceArg || !outArg) throw new Error('usage: copy-runtime-deps.mjs <workspace folder> <out folder>');

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
  cpSync(source, target, {
    recursive: true,
    filter: (file) => !path.relative(source, file).split(path.sep).includes('node_modules'),
  });
  copied += 1;
}
process.stdout.write(
  `${path.relative(root, workspace)}: ${copied} packages → ${path.relative(process.cwd(), out) || '.'}\n`,
);
