/** The monorepo's workspaces and the npm packages each one needs at run time (build scripts share this). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const WORKSPACE_SCOPE = '@starsgate/';

export const readManifest = (dir) => JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));

/** Workspace package name → folder, from the root manifest's workspace globs (apps/*, packages/*). */
export function workspaceFolders() {
  const folders = new Map();
  for (const glob of readManifest(root).workspaces) {
    const parent = path.join(root, glob.replace(/\/\*$/, ''));
    for (const name of readdirSync(parent)) {
      const dir = path.join(parent, name);
      if (existsSync(path.join(dir, 'package.json'))) folders.set(readManifest(dir).name, dir);
    }
  }
  return folders;
}

/**
 * npm packages a workspace may load at run time: its own production dependencies and those of the
 * workspace packages it depends on (bundled into its build), transitively.
 */
export function productionDependencies(dir, folders = workspaceFolders(), seen = new Set()) {
  const needed = new Set();
  for (const name of Object.keys(readManifest(dir).dependencies ?? {})) {
    if (!name.startsWith(WORKSPACE_SCOPE)) {
      needed.add(name);
      continue;
    }
    if (seen.has(name)) continue;
    seen.add(name);
    const folder = folders.get(name);
    if (!folder) throw new Error(`${name} is not a workspace`);
    for (const inner of productionDependencies(folder, folders, seen)) needed.add(inner);
  }
  return needed;
}

export const readLock = () => JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')).packages;

/** The lock key Node would load `name` from when required by the package at lock key `from`. */
function resolveFrom(lock, from, name) {
  for (let dir = from; ; dir = path.posix.dirname(dir)) {
    const base = dir === '.' || dir === '' ? '' : `${dir}/`;
    const candidate = `${base}node_modules/${name}`;
    if (lock[candidate]) return candidate;
    if (dir === '.' || dir === '') return undefined;
  }
}

/**
 * Every package-lock.json key (`node_modules/…`) a workspace's bundle can load at run time: its
 * production dependencies and theirs, through dependencies, optional and required peer dependencies,
 * resolved the way Node resolves them. What an image of the workspace installs.
 */
export function runtimeLockKeys(dir, lock = readLock()) {
  const keys = new Set();
  const pending = [...productionDependencies(dir)].map((name) => ({ from: '', name, optional: false }));
  while (pending.length > 0) {
    const { from, name, optional } = pending.pop();
    const key = resolveFrom(lock, from, name);
    if (!key) {
      if (optional) continue;
      throw new Error(`${name} (needed by ${from || 'the workspace'}) is not in package-lock.json`);
    }
    if (keys.has(key)) continue;
    keys.add(key);
    const entry = lock[key];
    for (const dependency of Object.keys(entry.dependencies ?? {}))
      pending.push({ from: key, name: dependency, optional: false });
    for (const dependency of Object.keys(entry.optionalDependencies ?? {}))
      pending.push({ from: key, name: dependency, optional: true });
    // An optional peer is the consumer's to install (valibot's `typescript`, for its types): the
    // workspace lists what it loads, so an optional peer enters only as someone's dependency.
    for (const dependency of Object.keys(entry.peerDependencies ?? {}))
      if (!entry.peerDependenciesMeta?.[dependency]?.optional)
        pending.push({ from: key, name: dependency, optional: false });
  }
  return keys;
}
