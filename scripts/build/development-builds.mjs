#!/usr/bin/env node
/**
 * What `npm start` and the tests need built while the apps run from their TypeScript sources: the
 * browser pages the gateway and the sandbox serve (built at build time, never by a running
 * process) and the `starsgate` CLI's bundle. About a second; `npm run build` builds them as well.
 *   node scripts/build/development-builds.mjs
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { root } from './workspaces.mjs';

const BUILDS = [
  { workspace: 'apps/gateway', args: ['scripts/build/browser-page.mjs', 'admin-ui', 'dist/admin-ui'] },
  { workspace: 'apps/sandbox', args: ['scripts/build/browser-page.mjs', 'web/checkout', 'dist/checkout'] },
  { workspace: 'apps/cli', args: ['scripts/build/bundle.mjs', 'src/main.ts'] },
];

for (const {
  workspace,
  args: [script, ...args],
} of BUILDS)
  execFileSync(process.execPath, [path.join(root, script), ...args], {
    cwd: path.join(root, workspace),
    stdio: 'inherit',
  });
