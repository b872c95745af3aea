/**
 * A project people may use: an MIT licence at the root and in every published package, and a
 * changelog per published package. The npm one is kept by changesets: its pending changesets
 * name only published packages, and `changeset version` (run on a copy of the workspace
 * manifests) turns them into a version and a changelog entry.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  license?: string;
}

const workspaces = ['apps', 'packages'].flatMap((parent) =>
  readdirSync(path.join(ROOT, parent))
    .map((name) => `${parent}/${name}`)
    .filter((dir) => existsSync(path.join(ROOT, dir, 'package.json'))),
);
const manifest = (dir: string) => JSON.parse(read(`${dir}/package.json`)) as Manifest;
/** The npm packages we publish (not private), and the Python SDK (published to PyPI). */
const npmPublished = workspaces.filter((dir) => !manifest(dir).private);
const published = [...npmPublished, 'packages/sdk-python'];

test('an MIT licence at the root and in each published package, declared in its manifest', () => {
  const licence = read('LICENSE');
  expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} starsgate contributors\n/);
  expect(npmPublished).toEqual(['packages/sdk']);
  for (const dir of published) expect({ dir, licence: read(`${dir}/LICENSE`) }).toEqual({ dir, licence });
  for (const dir of npmPublished) expect(manifest(dir).license).toBe('MIT');
  expect(read('packages/sdk-python/pyproject.toml')).toMatch(/^license = "MIT"$/m);
  expect(manifest('.').license).toBe('MIT');
});

test('each published package has a changelog whose latest release is its version', () => {
  for (const dir of npmPublished) {
    const changelog = read(`${dir}/CHANGELOG.md`);
    expect(changelog.startsWith(`# ${manifest(dir).name}\n`)).toBe(true);
    expect(/^## (\d+\.\d+\.\d+)$/m.exec(changelog)?.[1]).toBe(manifest(dir).version);
  }
  const python = read('packages/sdk-python/CHANGELOG.md');
  const version = /__version__ = "([^"]+)"/.exec(read('packages/sdk-python/src/starsgate/_version.py'))![1];
  expect(/^## (\d+\.\d+\.\d+)$/m.exec(python)?.[1]).toBe(version);
});

test('pending changesets name only published npm packages', () => {
  const names = new Set(npmPublished.map((dir) => manifest(dir).name));
  for (const file of readdirSync(path.join(ROOT, '.changeset')).filter((name) => name.endsWith('.md'))) {
    if (file === 'README.md') continue;
    const front = /^---\n([\s\S]*?)\n---/.exec(read(`.changeset/${file}`))![1]!;
    for (const line of front.split('\n')) {
      const name = /^['"]?([^'":]+)['"]?:\s*(patch|minor|major)$/.exec(line.trim())?.[1];
      expect({ file, line, published: name !== undefined && names.has(name) }).toEqual({
        file,
        line,
        published: true,
      });
    }
  }
});

test('changeset version turns a changeset into the next version and a changelog entry', () => {
  const copy = mkdtempSync(path.join(tmpdir(), 'changesets-'));
  try {
    writeFileSync(path.join(copy, 'package.json'), read('package.json'));
    for (const dir of workspaces) {
      mkdirSync(path.join(copy, dir), { recursive: true });
      writeFileSync(path.join(copy, dir, 'package.json'), read(`${dir}/package.json`));
    }
    cpSync(path.join(ROOT, 'packages/sdk/CHANGELOG.md'), path.join(copy, 'packages/sdk/CHANGELOG.md'));
    mkdirSync(path.join(copy, '.changeset'));
    writeFileSync(path.join(copy, '.changeset/config.json'), read('.changeset/config.json'));
    writeFileSync(
      path.join(copy, '.changeset/test-change.md'),
      "---\n'@starsgate/sdk': minor\n---\n\nA change for the test.\n",
    );
    execFileSync(process.execPath, [path.join(ROOT, 'node_modules/@changesets/cli/bin.js'), 'version'], {
      cwd: copy,
      stdio: 'pipe',
    });
    const [major, minor] = manifest('packages/sdk').version.split('.').map(Number);
    const next = `${major}.${minor! + 1}.0`;
    const bumped = JSON.parse(readFileSync(path.join(copy, 'packages/sdk/package.json'), 'utf8')) as Manifest;
    expect(bumped.version).toBe(next);
    const changelog = readFileSync(path.join(copy, 'packages/sdk/CHANGELOG.md'), 'utf8');
    expect(changelog).toMatch(new RegExp(`^# @starsgate/sdk\\n\\n## ${next.replace(/\./g, '\\.')}\\n`));
    expect(changelog).toContain('A change for the test.');
    // Private workspaces are not versioned.
    expect((JSON.parse(readFileSync(path.join(copy, 'apps/gateway/package.json'), 'utf8')) as Manifest).version).toBe(
      manifest('apps/gateway').version,
    );
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
