import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Where browser tests save their screenshots: SCREENSHOTS_DIR when set (`npm run screenshots`
 * points it at docs/screenshots, the README's), otherwise a folder in the OS's temporary
 * directory, so a test run never rewrites a tracked file.
 */
export function screenshotsDir(env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(env.SCREENSHOTS_DIR || path.join(tmpdir(), 'starsgate-screenshots'));
}

/** The file a screenshot named `name` goes to (its folder created). */
export function screenshotPath(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = screenshotsDir(env);
  mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}
