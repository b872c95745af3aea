#!/usr/bin/env node
/**
 * Build-time replacements of files in installed npm packages (packages/ton/patches/README.md): run
 * by npm's `postinstall` and by the Dockerfile after each `npm ci --ignore-scripts`. Each
 * `packages/<workspace>/patches/patches.json` entry replaces one file of one exact version with the
 * copy beside it, only while the installed file is still the published one; a moved version or a
 * changed file is left alone and reported (the workspace's patch test then fails). The file is
 * replaced by a rename, never written in place, so a node_modules hard-linked from another
 * checkout keeps its own copy.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');

function manifests() {
  const packages = path.join(root, 'packages');
  return readdirSync(packages)
    .map((name) => path.join(packages, name, 'patches'))
    .filter((dir) => existsSync(path.join(dir, 'patches.json')));
}

let problems = 0;
for (const dir of manifests()) {
  for (const patch of JSON.parse(readFileSync(path.join(dir, 'patches.json'), 'utf8'))) {
    const packageDir = path.join(root, 'node_modules', patch.package);
    const label = `${patch.package}@${patch.version} ${patch.file}`;
    if (!existsSync(path.join(packageDir, 'package.json'))) continue;
    const installed = JSON.parse(readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
    const target = path.join(packageDir, patch.file);
    const replacement = path.join(dir, patch.replacement);
    if (installed !== patch.version) {
      console.warn(`patch-dependencies: ${label} not applied: ${installed} is installed`);
      problems += 1;
      continue;
    }
    const current = sha256(target);
    if (current === sha256(replacement)) continue;
    if (current !== patch.publishedSha256) {
      console.warn(`patch-dependencies: ${label} not applied: the installed file is not the published one`);
      problems += 1;
      continue;
    }
    const staged = `${target}.starsgate-${process.pid}`;
    copyFileSync(replacement, staged);
    renameSync(staged, target);
    console.log(`patch-dependencies: ${label} replaced by ${path.relative(root, replacement)}`);
  }
}
if (problems > 0) console.warn('patch-dependencies: see packages/ton/patches/README.md to make the copies again');
