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
