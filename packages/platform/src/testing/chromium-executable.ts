/**
 * The Chromium executable the browser tests launch: find-chromium.mjs decides (CHROMIUM_PATH, the
 * system's, else the one inside the @sparticuz/chromium package), in a child process, since that
 * package is an ES module jest's module system does not load.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const FIND_CHROMIUM = path.join(__dirname, 'find-chromium.mjs');

function run(args: string[], env: NodeJS.ProcessEnv): string {
  const result = spawnSync(process.execPath, [FIND_CHROMIUM, ...args], { encoding: 'utf8', env });
  if (result.status !== 0) throw new Error(result.stderr.trim() || `find-chromium.mjs exited ${result.status}`);
  return result.stdout.trim();
}

/** The browser the tests drive; throws with what to install when there is none. */
export function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): string {
  return run([], env);
}

/** The Chromium inside the @sparticuz/chromium package, whatever the system has: a fresh machine's browser. */
export function packagedChromiumExecutable(): string {
  return run(['--packaged'], process.env);
}

/**
 * playwright's `chromium.launch` options for the tests: the browser above, no sandbox (CI runs as
 * root), and a locale. Under LANG=C the packaged Chromium reports its default locale as
 * `en-US@posix`, which Intl refuses ("Invalid language tag"); Debian's maps C to en-US itself.
 */
export function chromiumLaunchOptions(): { executablePath: string; args: string[]; env: Record<string, string> } {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  return { executablePath: chromiumExecutable(), args: ['--no-sandbox'], env: { ...env, LANG: 'en_US.UTF-8' } };
}
