/**
 * The tarball `npm publish` would upload, linted as the ecosystem lints packages: publint (the
 * manifest, exports map and files agree) and Are The Types Wrong (types resolve for node10,
 * node16 from CJS and ESM, and bundlers), both on `npm pack` output. It carries the licence and
 * the changelog.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

jest.setTimeout(180_000);

const SDK = path.resolve(__dirname, '..');
const ROOT = path.resolve(SDK, '../..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

let dir: string;
let tarball: string;

beforeAll(() => {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: SDK, stdio: 'pipe' });
  dir = mkdtempSync(path.join(tmpdir(), 'sdk-pack-'));
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: SDK, encoding: 'utf8' }),
  ) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(dir, packed[0]!.filename);
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: dir, encoding: 'utf8' });

test('the tarball holds the builds, the licence and the changelog, and no sources or tests', () => {
  const files = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
  expect(files).toEqual(
    expect.arrayContaining([
      'package/LICENSE',
      'package/CHANGELOG.md',
      'package/package.json',
      'package/dist/esm/index.js',
      'package/dist/esm/index.d.ts',
      'package/dist/cjs/index.js',
      'package/dist/cjs/index.d.ts',
    ]),
  );
  expect(files.filter((file) => /^package\/(src|test|scripts)\//.test(file))).toEqual([]);
});

test('publint finds nothing, warnings included', () => {
  const result = run(bin('publint'), ['run', tarball, '--strict']);
  expect({ status: result.status, output: result.stdout + result.stderr }).toEqual({
    status: 0,
    output: expect.stringContaining('All good') as unknown,
  });
});

test('Are The Types Wrong finds no problem for any module resolution', () => {
  const result = run(bin('attw'), [tarball, '--format', 'json']);
  const report = JSON.parse(result.stdout) as {
    analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, unknown> }> };
  };
  expect(report.analysis.problems).toEqual([]);
  expect(Object.keys(report.analysis.entrypoints['.']!.resolutions).sort()).toEqual([
    'bundler',
    'node10',
    'node16-cjs',
    'node16-esm',
  ]);
  expect(result.status).toBe(0);
});
