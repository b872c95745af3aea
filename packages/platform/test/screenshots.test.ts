/**
 * Browser tests save their screenshots through `screenshotPath`: by default outside the
 * repository's tracked files (a test run must not rewrite the README's docs/screenshots/), and
 * into docs/screenshots/ only when `npm run screenshots` asks for it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { screenshotPath } from '../src/testing';

const ROOT = path.resolve(__dirname, '../../..');

/** Whether git would track a file written at `file`: inside this checkout and not ignored. */
function trackable(file: string): boolean {
  if (path.relative(ROOT, file).startsWith('..')) return false;
  return spawnSync('git', ['check-ignore', '-q', file], { cwd: ROOT }).status !== 0;
}

it('by default a screenshot goes outside the tracked tree, in a folder that exists', () => {
  const file = screenshotPath('checkout', {});
  expect(existsSync(path.dirname(file))).toBe(true);
  expect(trackable(file)).toBe(false);
});

it('npm run screenshots sends them to the README screenshots git tracks', () => {
  const script = (
    JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts.screenshots;
  const dir = /\bSCREENSHOTS_DIR=(\S+)/.exec(script ?? '')?.[1];
  expect(dir).toBe('docs/screenshots');
  const file = screenshotPath('checkout', { SCREENSHOTS_DIR: path.join(ROOT, dir!) });
  expect(path.relative(ROOT, file)).toBe('docs/screenshots/checkout.png');
  expect(execFileSync('git', ['ls-files', '--', file], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(
    'docs/screenshots/checkout.png',
  );
});
