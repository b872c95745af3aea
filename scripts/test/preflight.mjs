#!/usr/bin/env node
/**
 * The first step of `npm test`: what the tests need from the machine beyond `npm ci`, checked
 * before minutes of type-checking and building, each missing piece named with how to get it:
 *   - Node: the `engines` range of package.json (CI runs the images' release, .node-version);
 *   - Chromium for the browser suites: the system's, else the one inside @sparticuz/chromium
 *     (packages/platform/src/testing/find-chromium.mjs), inflated here once, before suites run at once;
 *   - kubectl for the deployment tests (`kubectl kustomize` renders the k8s overlays);
 *   - PostgreSQL at TEST_DATABASE_ADMIN_URL, where throw-away databases (`starsgate_test_*`) older
 *     than a day, left by jest processes that were killed, are dropped (a test file's own are dropped
 *     when it ends: test/jest/environment.js).
 * Exits 1 when something is missing.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { findChromium } from '../../packages/platform/src/testing/find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const STALE_AFTER = '1 day';
const missing = [];

/** `>=22.17` against process.versions.node. */
function nodeSatisfies(range) {
  const [major, minor] = /^>=(\d+)\.(\d+)$/.exec(range).slice(1).map(Number);
  const [haveMajor, haveMinor] = process.versions.node.split('.').map(Number);
  return haveMajor > major || (haveMajor === major && haveMinor >= minor);
}

const { engines } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
if (!nodeSatisfies(engines.node)) {
  missing.push(
    `Node ${engines.node} (this is ${process.version}): install Node 22 or 24 LTS; bash scripts/node-release.sh fetches the release CI runs (.node-version) from the npm registry`,
  );
}

const chromium = findChromium();
if (chromium.missing) missing.push(chromium.missing);

try {
  execFileSync('kubectl', ['version', '--client'], { stdio: 'ignore' });
} catch {
  missing.push(
    'kubectl, for the deployment tests (`kubectl kustomize` renders k8s/): install kubectl 1.27 or later (it ships kustomize v5) from the Kubernetes release binaries or your distribution, and put it on PATH',
  );
}

const admin = new pg.Client({ connectionString: ADMIN_URL });
try {
  await admin.connect();
  // A database's creation time: its directory's PG_VERSION file (superuser or pg_read_server_files).
  const { rows } = await admin.query(
    `SELECT datname FROM pg_database
      WHERE datname LIKE 'starsgate\\_test\\_%'
        AND (pg_stat_file('base/' || oid || '/PG_VERSION')).modification < now() - $1::interval`,
    [STALE_AFTER],
  );
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  if (rows.length > 0)
    process.stdout.write(`preflight: dropped ${rows.length} test database(s) older than ${STALE_AFTER}\n`);
} catch (error) {
  missing.push(
    `PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@/]*@/, '//…@')} (${error.message}): start it (user postgres, trust auth on 127.0.0.1:5432), or set TEST_DATABASE_ADMIN_URL`,
  );
} finally {
  await admin.end().catch(() => undefined);
}

if (missing.length > 0) {
  process.stderr.write(`npm test needs, and this machine lacks:\n${missing.map((line) => `  - ${line}`).join('\n')}\n`);
  process.exit(1);
}
