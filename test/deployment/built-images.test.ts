/**
 * Each image as it would start, without a container engine: the target's runtime node_modules and
 * built dist in a folder of their own (nothing to fall back on: no sources, no dev dependencies,
 * no tsx), its CMD and ENV, and its HEALTHCHECK command answering through /livez.
 */
import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import {
  createTestDatabase,
  TEST_DATABASE_ADMIN_URL,
  testDatabaseName,
  type TestDatabase,
} from '@starsgate/db/testing';
import { generateRingEntry, parseKeyRing, sealKeyOf } from '@starsgate/db';
import { freePort, waitFor } from '@starsgate/platform/testing';
import { root } from './repo-root';
import { exampleValues } from './env-example';
import { imageTargets, type ImageTarget } from './image-targets';
import {
  assembleImage,
  buildApps,
  healthCheck,
  readOnlyRootAvailable,
  startImage,
  type ImageLayout,
  type RunningImage,
} from './image-layout';

jest.setTimeout(180_000);

/** Every image runs as the manifests run it: read-only root, its volumes writable (where this machine can). */
const readOnly = readOnlyRootAvailable ? ' on a read-only root filesystem' : '';

const target = (name: ImageTarget['name']) => imageTargets.find((candidate) => candidate.name === name)!;
const workerKeyRing = generateRingEntry('k1');
/** What the Secrets give each: the worker opens secrets, the gateway only seals to the public key. */
const workerKeys = { STARSGATE_SECRET_KEY: workerKeyRing };
const gatewayKeys = {
  STARSGATE_SEAL_KEY: sealKeyOf(parseKeyRing(workerKeyRing)),
  STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}`,
};
const layouts: ImageLayout[] = [];
const running: RunningImage[] = [];
let database: TestDatabase;

beforeAll(async () => {
  buildApps();
  database = await createTestDatabase();
});

afterAll(async () => {
  for (const image of running) if (image.child.exitCode === null) image.child.kill('SIGKILL');
  await database?.drop();
  for (const layout of layouts) layout.remove();
});

function assemble(name: ImageTarget['name']): ImageLayout {
  const layout = assembleImage(target(name));
  layouts.push(layout);
  return layout;
}

/** PostgreSQL and Redis (a queue prefix of its own), as the Secret gives them. */
const backingServices = () => ({
  DATABASE_URL: database.url,
  REDIS_URL: process.env.REDIS_URL!,
  BULLMQ_PREFIX: `img-${randomBytes(3).toString('hex')}`,
});

/** SIGTERM, then a clean exit (its output shown if not). */
async function expectCleanStop(image: RunningImage): Promise<void> {
  image.child.kill('SIGTERM');
  const exit = await image.exited;
  expect({ exit, output: exit.code === 0 ? '' : image.output() }).toEqual({
    exit: { code: 0, signal: null },
    output: '',
  });
}

const envFile = (file: string) =>
  Object.fromEntries(
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z]/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );

const serviceVersion = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string })
  .version;

test('the bundles require no TypeScript runtime', () => {
  for (const { entry } of imageTargets) {
    const bundle = readFileSync(path.join(root, entry), 'utf8');
    expect(bundle).not.toMatch(/require\(["'](tsx|esbuild|typescript)["'/]/);
    // No module of ours is loaded as TypeScript source (a browser page's entry handed to esbuild
    // is not a require).
    expect(bundle).not.toMatch(/(require|import)\(["'][^"']*\.ts["']\)/);
  }
});

test(`migrate${readOnly}: applies every migration to a new database and exits 0`, async () => {
  const layout = assemble('migrate');
  const name = testDatabaseName();
  const url = new URL(TEST_DATABASE_ADMIN_URL);
  url.pathname = `/${name}`;
  const image = startImage(target('migrate'), layout, { DATABASE_URL: url.toString() }, { readOnlyRoot: true });
  running.push(image);
  expect(await image.exited).toEqual({ code: 0, signal: null });
  const journal = JSON.parse(readFileSync(path.join(root, 'packages/db/migrations/meta/_journal.json'), 'utf8')) as {
    entries: unknown[];
  };
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  const applied = await client.query<{ count: string }>(
    'SELECT count(*)::text AS count FROM drizzle.__drizzle_migrations',
  );
  await client.end();
  const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
  expect(Number(applied.rows[0]!.count)).toBe(journal.entries.length);
});

test(`gateway${readOnly}: starts in production mode and its HEALTHCHECK passes on /livez; SIGTERM exits 0`, async () => {
  const layout = assemble('gateway');
  const env = {
    PORT: String(await freePort()),
    ADMIN_PORT: String(await freePort()),
    HOST: '127.0.0.1',
    ...backingServices(),
    ...gatewayKeys,
    FRAGMENT_READ_COOKIES: 'stel_ssid=image-test',
    STARSGATE_ADMIN_TOKENS: 'image-test-admin-token-0123456789abcdef',
    // Production requires ton_proof for checkouts, and with it the shop's domain.
    TON_PROOF_DOMAINS: 'shop.example',
    LOG_LEVEL: 'warn',
  };
  expect(healthCheck(target('gateway'), layout, env)).toBe(false);
  const image = startImage(target('gateway'), layout, env, { readOnlyRoot: true });
  running.push(image);
  await waitFor(() => healthCheck(target('gateway'), layout, env), {
    timeoutMs: 60_000,
    intervalMs: 250,
    what: `gateway healthy (${image.output()})`,
  });
  const livez = await fetch(`http://127.0.0.1:${env.PORT}/livez`);
  expect(livez.status).toBe(200);
  // The release it runs, from the service's one version source; the pods probe the operator listener.
  expect(await livez.json()).toEqual({ status: 'ok', version: serviceVersion });
  for (const probe of ['/livez', '/readyz'])
    expect({ probe, status: (await fetch(`http://127.0.0.1:${env.ADMIN_PORT}${probe}`)).status }).toEqual({
      probe,
      status: 200,
    });
  // The dashboard was built with the image: served (on the operator listener) from dist/ with no esbuild in its node_modules.
  expect(existsSync(path.join(layout.dir, 'node_modules', 'esbuild'))).toBe(false);
  for (const [asset, type] of [
    ['/admin', 'text/html'],
    ['/admin/assets/app.js', 'text/javascript'],
    ['/admin/assets/app.css', 'text/css'],
  ] as const) {
    const res = await fetch(`http://127.0.0.1:${env.ADMIN_PORT}${asset}`);
    expect({ asset, status: res.status, type: res.headers.get('content-type')?.split(';')[0] }).toEqual({
      asset,
      status: 200,
      type,
    });
  }
  await expectCleanStop(image);
});

test(`worker${readOnly}: starts in production mode, takes the queue, and stops on SIGTERM with exit 0`, async () => {
  const layout = assemble('worker');
  const image = startImage(
    target('worker'),
    layout,
    {
      ...backingServices(),
      ...workerKeys,
      FRAGMENT_BASE_URL: 'http://127.0.0.1:9/fragment',
      TONCENTER_URL: 'http://127.0.0.1:9/toncenter',
      PRICES_REFRESH_ENABLED: 'false',
      LOG_LEVEL: 'info',
    },
    { readOnlyRoot: true },
  );
  running.push(image);
  await waitFor(() => image.output().includes('"message":"worker started"'), {
    timeoutMs: 60_000,
    intervalMs: 250,
    what: `worker started (${image.output()})`,
  });
  await expectCleanStop(image);
  expect(image.output()).toContain('"message":"stopped"');
});

test(`sandbox${readOnly}: HEALTHCHECK passes on /livez, and its demo values are the ones .env.example and the k8s demo overlay ship`, async () => {
  const layout = assemble('sandbox');
  const volume = path.join(layout.dir, 'data');
  mkdirSync(volume);
  const env = {
    SANDBOX_PORT: String(await freePort()),
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_DATA_DIR: path.join(volume, 'sandbox'),
  };
  const image = startImage(target('sandbox'), layout, env, { readOnlyRoot: true, writable: [volume] });
  running.push(image);
  await waitFor(() => healthCheck(target('sandbox'), layout, env), {
    timeoutMs: 120_000,
    intervalMs: 250,
    what: `sandbox healthy (${image.output()})`,
  });
  // The demo shop page was built with the image (dist/checkout), no esbuild at run time.
  expect(existsSync(path.join(layout.dir, 'node_modules', 'esbuild'))).toBe(false);
  const page = await fetch(`http://127.0.0.1:${env.SANDBOX_PORT}/demo/checkout/app.js`);
  expect({ status: page.status, type: page.headers.get('content-type')?.split(';')[0] }).toEqual({
    status: 200,
    type: 'text/javascript',
  });
  expect((await page.text()).length).toBeGreaterThan(1000);
  const demo = (await (await fetch(`http://127.0.0.1:${env.SANDBOX_PORT}/demo`)).json()) as {
    seed: string;
    usdt: { master: string };
    fragment: { cookies: string; receivingAddresses: { stars: string; premium: string } };
  };
  await expectCleanStop(image);
  // Its state went to the volume, the only place it may write.
  expect(existsSync(path.join(volume, 'sandbox', 'chain-state.json'))).toBe(true);

  const example = exampleValues();
  const overlayConfig = envFile('k8s/overlays/sandbox/config.env');
  const overlaySecrets = {
    ...envFile('k8s/overlays/sandbox/demo-secrets/worker.env'),
    ...envFile('k8s/overlays/sandbox/demo-secrets/gateway.env'),
  };
  const receivers = `${demo.fragment.receivingAddresses.stars},${demo.fragment.receivingAddresses.premium}`;
  const firstLogin = demo.fragment.cookies.split(' | ')[0];
  expect(demo.seed).toBe(example.SANDBOX_SEED);
  for (const values of [example, overlayConfig]) {
    expect(values.USDT_MASTER_ADDRESS).toBe(demo.usdt.master);
    expect(values.FRAGMENT_RECEIVING_ADDRESSES).toBe(receivers);
  }
  for (const values of [example, overlaySecrets]) expect(values.FRAGMENT_COOKIES).toBe(firstLogin);
  expect(overlaySecrets.FRAGMENT_READ_COOKIES).toBe(firstLogin);
});

test('cli: the operator tools run from the image (version, keys generate, migrate, doctor), no npx', async () => {
  const layout = assemble('cli');
  // /usr/local/bin/starsgate in the image: `node /app/apps/cli/bin/starsgate.js "$@"`.
  const starsgate = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [path.join(layout.dir, 'apps/cli/bin/starsgate.js'), ...args], {
      cwd: layout.dir,
      env: { PATH: process.env.PATH, NODE_ENV: 'production', ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });
  const version = starsgate(['--version']);
  expect({ status: version.status, stdout: version.stdout }).toEqual({
    status: 0,
    stdout: `starsgate ${serviceVersion}\n`,
  });
  const keys = starsgate(['keys', 'generate', '--json']);
  expect({ status: keys.status, stderr: keys.stderr }).toEqual({ status: 0, stderr: '' });
  expect(JSON.parse(keys.stdout)).toEqual(
    expect.objectContaining({ STARSGATE_SECRET_KEY: expect.stringMatching(/^k\w*:/) }),
  );

  const name = `starsgate_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(TEST_DATABASE_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    const migrate = starsgate(['migrate'], { DATABASE_URL: url.toString() });
    expect({ status: migrate.status, output: migrate.stderr }).toEqual({ status: 0, output: '' });
    // The doctor's report over what it was given: PostgreSQL reachable, the missing key named.
    const doctor = starsgate(['doctor'], { DATABASE_URL: url.toString(), REDIS_URL: process.env.REDIS_URL! });
    expect(doctor.stdout).toMatch(/\[ok {2}\] PostgreSQL/);
    expect(doctor.stdout).toContain('STARSGATE_SECRET_KEY');
  } finally {
    const admin = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
});
