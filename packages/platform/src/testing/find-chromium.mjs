#!/usr/bin/env node
/**
 * Which Chromium the browser tests drive (the checkout demo page, the operator dashboard, the SDK in
 * a page), found the same way by the tests (chromium-executable.ts) and by `npm test`'s preflight:
 *   1. CHROMIUM_PATH, when set (it must exist);
 *   2. the system's `chromium` or `chromium-browser` (Debian's package: apt-get install -y chromium);
 *   3. the Chromium inside the `@sparticuz/chromium` npm package (a devDependency, so `npm ci` brings
 *      it on a machine without a system one; Linux x64), inflated once into
 *      $TMPDIR/starsgate-chromium-<version>/.
 * `node find-chromium.mjs` prints the executable's path, or says what is missing and exits 1;
 * `--packaged` skips 1 and 2 (what a machine without a system Chromium gets).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MISSING_CHROMIUM =
  'no Chromium for the browser tests: `npm ci` installs one inside the @sparticuz/chromium package (Linux x64); ' +
  'elsewhere install the system one (Debian/Ubuntu: apt-get install -y chromium) or set CHROMIUM_PATH to a Chromium or Chrome executable';

function onPath(name) {
  try {
    return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

export function systemChromium() {
  return ['chromium', 'chromium-browser'].map(onPath).find(Boolean);
}

/** The package's Chromium, inflated on first use; undefined when the package or its platform is absent. */
export function packagedChromium() {
  if (process.platform !== 'linux' || process.arch !== 'x64') return undefined;
  let entry;
  try {
    entry = import.meta.resolve('@sparticuz/chromium');
  } catch {
    return undefined;
  }
  const manifest = path.join(path.dirname(fileURLToPath(entry)), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8'));
  const home = path.join(os.tmpdir(), `starsgate-chromium-${version}`);
  const executable = path.join(home, 'chromium');
  if (existsSync(executable)) return executable;
  // The package inflates the browser, its fonts and its GL libraries into os.tmpdir(): a child with
  // TMPDIR at a staging folder, then one rename, so runs at once never start a half-written browser.
  const staging = mkdtempSync(path.join(os.tmpdir(), 'starsgate-chromium-staging-'));
  try {
    execFileSync(
      process.execPath,
      ['--input-type=module', '-e', `await (await import(${JSON.stringify(entry)})).default.executablePath();`],
      { env: { ...process.env, TMPDIR: staging }, stdio: ['ignore', 'ignore', 'inherit'] },
    );
    renameSync(staging, home);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another run renamed its staging folder first: use that one.
    if (!existsSync(executable)) throw error;
  }
  return executable;
}

/** `{ path }` of the Chromium to drive, or `{ missing }` saying what to install. */
export function findChromium(env = process.env, { packagedOnly = false } = {}) {
  if (!packagedOnly && env.CHROMIUM_PATH) {
    return existsSync(env.CHROMIUM_PATH)
      ? { path: env.CHROMIUM_PATH }
      : { missing: `CHROMIUM_PATH=${env.CHROMIUM_PATH} does not exist` };
  }
  const found = (packagedOnly ? undefined : systemChromium()) ?? packagedChromium();
  return found ? { path: found } : { missing: MISSING_CHROMIUM };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const result = findChromium(process.env, { packagedOnly: process.argv.includes('--packaged') });
  if (result.path) process.stdout.write(`${result.path}\n`);
  else {
    process.stderr.write(`${result.missing}\n`);
    process.exitCode = 1;
  }
}
