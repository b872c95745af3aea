#!/usr/bin/env node
/**
 * Build-time bundle of a browser page: `node ../../scripts/build/browser-page.mjs <page folder> <out folder>`
 * from the workspace folder. The page folder holds `index.html`, the entry `src/main.tsx`,
 * `src/main.ts` or `main.ts`, and any static `.css` it links; the out folder gets `app.js` (and
 * `app.css` when the entry imports CSS) beside copies of the HTML and CSS files, ready to serve.
 * esbuild takes JSX settings from the nearest tsconfig.json. Runs at build time only, so no
 * production image and no running process needs esbuild.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const [pageArg, outArg] = process.argv.slice(2);
if (!pageArg || !outArg) throw new Error('usage: browser-page.mjs <page folder> <out folder>');
const pageDir = path.resolve(pageArg);
const outDir = path.resolve(outArg);

const entry = ['src/main.tsx', 'src/main.ts', 'main.ts']
  .map((candidate) => path.join(pageDir, candidate))
  .find((candidate) => existsSync(candidate));
if (!entry) throw new Error(`${pageArg}: no src/main.tsx, src/main.ts or main.ts`);

rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: { app: entry },
  outdir: outDir,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});
for (const file of readdirSync(pageDir))
  if (/\.(html|css)$/.test(file)) copyFileSync(path.join(pageDir, file), path.join(outDir, file));
