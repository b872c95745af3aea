/**
 * The workspace graph is what the manifests say it is: no file reaches into another workspace by a
 * relative path or into its `src/` by package name (other workspaces are used through their
 * `exports`), and every package a workspace's code imports is declared in that workspace's
 * package.json (`src/` in dependencies; tests may also use devDependencies and the root's toolchain).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const WORKSPACE_GLOBS = ['apps', 'packages', 'tools'];
const ROOT_FOLDERS = ['scripts', 'test'];
interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Workspace {
  dir: string;
  manifest: Manifest;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as Manifest;
}

const rootManifest = readManifest(ROOT);
const workspaces: Workspace[] = WORKSPACE_GLOBS.flatMap((parent) =>
  readdirSync(path.join(ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(ROOT, parent, entry.name))
    .map((dir) => ({ dir, manifest: readManifest(dir) })),
);
const workspaceNames = new Set(workspaces.map((workspace) => workspace.manifest.name));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => !file.split(path.sep).includes('node_modules'));
}

/** Static imports and re-exports, dynamic imports, requires (template literals up to the first `${`). */
const SPECIFIER =
  /(?:^\s*(?:import|export)\s[^;]*?\bfrom\s+|^\s*import\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)(['"`])([^'"`$]+)/gm;

function specifiersOf(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => match[2]!);
}

function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

function isBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(packageNameOf(specifier));
}

/** The workspace directory a path belongs to, or ROOT for scripts/ and test/. */
function ownerOf(file: string): string {
  const owner = workspaces.find((workspace) => file.startsWith(workspace.dir + path.sep));
  return owner ? owner.dir : ROOT;
}

interface Violation {
  file: string;
  specifier: string;
  problem: string;
}

interface Source {
  file: string;
  text: string;
}

function sourcesIn(dir: string): Source[] {
  // This file's own probe text holds the very imports it reports.
  return sourceFiles(dir)
    .filter((file) => file !== __filename)
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }));
}

function violationsIn(sources: Source[], declared: (file: string) => Set<string>): Violation[] {
  const found: Violation[] = [];
  for (const { file, text } of sources) {
    const relative = path.relative(ROOT, file);
    for (const specifier of specifiersOf(text)) {
      if (specifier.startsWith('.')) {
        const target = path.resolve(path.dirname(file), specifier);
        if (ownerOf(target) !== ownerOf(file)) {
          found.push({ file: relative, specifier, problem: 'relative import into another workspace' });
        }
        continue;
      }
      if (isBuiltin(specifier)) continue;
      const name = packageNameOf(specifier);
      if (workspaceNames.has(name) && /^@starsgate\/[^/]+\/src(\/|$)/.test(specifier)) {
        found.push({ file: relative, specifier, problem: "import into another workspace's src/" });
      }
      if (!declared(file).has(name)) {
        found.push({ file: relative, specifier, problem: `${name} is not declared in the manifest` });
      }
    }
  }
  return found;
}

const names = (...lists: (Record<string, string> | undefined)[]): Set<string> =>
  new Set(lists.flatMap((list) => Object.keys(list ?? {})));

describe('package boundaries', () => {
  it.each(workspaces.map((workspace) => [workspace.manifest.name, workspace] as const))(
    '%s imports other workspaces only through their exports, and declares what it imports',
    (_name, workspace) => {
      const runtime = names(workspace.manifest.dependencies);
      const forTests = names(
        workspace.manifest.dependencies,
        workspace.manifest.devDependencies,
        rootManifest.devDependencies,
      );
      const srcDir = path.join(workspace.dir, 'src');
      const violations = violationsIn(sourcesIn(workspace.dir), (file) =>
        file.startsWith(srcDir + path.sep) ? runtime : forTests,
      );
      expect(violations).toEqual([]);
    },
  );

  it.each(ROOT_FOLDERS)('the root folder %s/ imports workspaces through their exports', (folder) => {
    const declared = names(rootManifest.devDependencies);
    expect(violationsIn(sourcesIn(path.join(ROOT, folder)), () => declared)).toEqual([]);
  });

  it('reports a relative import into another workspace, a deep src/ import and an undeclared package', () => {
    const probe = path.join(ROOT, 'apps', 'worker', 'test', 'probe.test.ts');
    const text = [
      "import { startSandbox } from '../../sandbox/src/server';",
      "import type { FragmentConfigPatch } from '@starsgate/sandbox/src/fragment';",
      "const sdk = require(`left-pad/${'x'}`);",
      "import { readFileSync } from 'node:fs';",
      "import { HeldPurchase } from '../src/purchases/persistence/held-purchase';",
      "import { Sweeper } from '@starsgate/worker';",
    ].join('\n');
    const declared = new Set(['@starsgate/sandbox', '@starsgate/worker']);
    expect(violationsIn([{ file: probe, text }], () => declared)).toEqual([
      {
        file: 'apps/worker/test/probe.test.ts',
        specifier: '../../sandbox/src/server',
        problem: 'relative import into another workspace',
      },
      {
        file: 'apps/worker/test/probe.test.ts',
        specifier: '@starsgate/sandbox/src/fragment',
        problem: "import into another workspace's src/",
      },
      {
        file: 'apps/worker/test/probe.test.ts',
        specifier: 'left-pad/',
        problem: 'left-pad is not declared in the manifest',
      },
    ]);
  });

  it('holds the tools to the same rule: the launcher through @starsgate/stack, no root folder by path', () => {
    const tool = path.join(ROOT, 'tools', 'chaos', 'src', 'probe.ts');
    const app = path.join(ROOT, 'apps', 'worker', 'test', 'probe.test.ts');
    const text = [
      "import { startStack } from '../../../tools/stack/src';",
      "import { operatorGateway } from '../../../test/support/operator-gateway';",
      "import { bundle } from '../../../scripts/build/bundle';",
      "import { startSandbox } from '../../../apps/sandbox/src/server';",
      "import { sleep } from '@starsgate/stack';",
    ].join('\n');
    const problems = (file: string) =>
      violationsIn([{ file, text }], () => new Set(['@starsgate/stack'])).map((violation) => violation.specifier);
    expect(problems(tool)).toEqual([
      '../../../tools/stack/src',
      '../../../test/support/operator-gateway',
      '../../../scripts/build/bundle',
      '../../../apps/sandbox/src/server',
    ]);
    expect(problems(app)).toEqual([
      '../../../tools/stack/src',
      '../../../test/support/operator-gateway',
      '../../../scripts/build/bundle',
      '../../../apps/sandbox/src/server',
    ]);
  });
});
