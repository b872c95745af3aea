#!/usr/bin/env node
/**
 * Production build of one workspace: `node ../../scripts/build/bundle.mjs src/main.ts [src/other.ts …]`
 * run from the workspace folder (its package.json `build` script, driven by `turbo run build`).
 *
 * Each entry becomes `dist/<name>.js`, one CommonJS file for Node 22 or later. The @starsgate/* workspace
 * packages (which export their TypeScript sources) are bundled in; every npm package stays
 * external and is loaded from node_modules, where the image installs production dependencies
 * only. The build fails when the bundle imports a package that is not a production dependency of
 * the workspace (directly or through a workspace package it uses), since the image would not have
 * it. A bundle that contains the migration runner gets the migrations folder beside it.
 */
import { builtinModules } from 'node:module';
import { cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { productionDependencies, readManifest, root, WORKSPACE_SCOPE } from './workspaces.mjs';

const workspaceDir = process.cwd();
const entries = process.argv.slice(2);
if (entries.length === 0) throw new Error('usage: bundle.mjs <entry.ts> [<entry.ts> …]');

const MIGRATION_RUNNER = 'packages/db/src/migrate.ts';
const MIGRATIONS = path.join(root, 'packages/db/migrations');

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const builtins = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
const imported = new Set();

/** Bare imports other than @starsgate/* stay external; workspace packages resolve to their sources. */
const externalPackages = {
  name: 'external-packages',
  setup(plugin) {
    plugin.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
      if (!builtins.has(args.path)) imported.add(packageName(args.path));
      return { path: args.path, external: true };
    });
  },
};

const outdir = path.join(workspaceDir, 'dist');
rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: entries.map((entry) => path.join(workspaceDir, entry)),
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  sourcemap: true,
  keepNames: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [externalPackages],
});

const allowed = productionDependencies(workspaceDir);
const undeclared = [...imported].filter((name) => !allowed.has(name)).sort();
if (undeclared.length > 0) {
  throw new Error(
    `${readManifest(workspaceDir).name}: the bundle imports ${undeclared.join(', ')}, which ${
      undeclared.length === 1 ? 'is not a production dependency' : 'are not production dependencies'
    } of the workspace or of the workspace packages it uses`,
  );
}

const inputs = Object.keys(result.metafile.inputs).map((input) => path.relative(root, path.resolve(input)));
if (inputs.includes(MIGRATION_RUNNER)) cpSync(MIGRATIONS, path.join(outdir, 'migrations'), { recursive: true });
