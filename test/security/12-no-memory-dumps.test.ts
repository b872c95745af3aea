/**
 * Attack 12 (second half): a core dump or heap snapshot of a service holds its keys (the worker's
 * open wallet secrets). The production services refuse to start with a flag that dumps memory,
 * writes a diagnostic report (it lists the environment) or opens an inspector, and the images
 * start every process with RLIMIT_CORE 0 (the Dockerfile's ENTRYPOINT, which no pod replaces).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { generateRingEntry, parseKeyRing, sealKeyOf } from '@starsgate/db';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { freePort } from '@starsgate/platform/testing';
import { freshBundle, REPO_ROOT } from '@starsgate/stack';
import { effectiveInstructions, readDockerfile } from '../deployment/dockerfile';

jest.setTimeout(120_000);

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** Starts the production gateway (its bundle, as the image runs it); resolves with its exit code, or 'running' once it answers /livez. */
async function startGateway(nodeOptions: string): Promise<{ outcome: number | 'running'; output: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, [freshBundle('gateway')], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      NODE_OPTIONS: nodeOptions,
      PORT: String(port),
      ADMIN_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      BULLMQ_PREFIX: `dump-${randomBytes(3).toString('hex')}`,
      STARSGATE_SEAL_KEY: sealKeyOf(parseKeyRing(generateRingEntry('d1'))),
      STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}`,
      FRAGMENT_READ_COOKIES: 'stel_ssid=dump-test',
      TON_PROOF_DOMAINS: 'localhost',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number>((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const done = await Promise.race([exited, new Promise<null>((resolve) => setTimeout(() => resolve(null), 250))]);
    if (done !== null) return { outcome: done, output };
    const live = await fetch(`http://127.0.0.1:${port}/livez`).catch(() => null);
    if (live?.ok) {
      child.kill('SIGKILL');
      await exited;
      return { outcome: 'running', output };
    }
  }
  child.kill('SIGKILL');
  throw new Error(`the gateway neither started nor exited:\n${output}`);
}

test.each([
  '--heapsnapshot-signal=SIGUSR2',
  '--heapsnapshot-near-heap-limit=1',
  '--report-on-signal',
  '--abort-on-uncaught-exception',
])('the production gateway refuses to start with %s', async (flag) => {
  const { outcome, output } = await startGateway(flag);
  expect({ outcome, refused: output.includes(`refusing to start in production with ${flag}`) }).toEqual({
    outcome: 1,
    refused: true,
  });
});

test('the same gateway starts without such a flag (the refusal is the flag, not the setup)', async () => {
  const { outcome, output } = await startGateway('--enable-source-maps');
  expect({ outcome, output: outcome === 'running' ? '' : output }).toEqual({ outcome: 'running', output: '' });
});

test('every image starts its process with RLIMIT_CORE 0', () => {
  const { stages } = readDockerfile();
  for (const target of ['gateway', 'worker', 'migrate', 'sandbox', 'cli']) {
    const entrypoint = JSON.parse(
      effectiveInstructions(stages, target)
        .filter((instruction) => instruction.keyword === 'ENTRYPOINT')
        .at(-1)!.argument,
    ) as string[];
    // Run the ENTRYPOINT's shell as the image does, with tini's path swapped for a probe of the limit.
    const script = entrypoint[2]!.replace('/usr/bin/tini --', '');
    const probe = spawnSync(entrypoint[0]!, [entrypoint[1]!, script, entrypoint[3]!, 'sh', '-c', 'ulimit -c'], {
      encoding: 'utf8',
    });
    expect({ target, limit: probe.stdout.trim() }).toEqual({ target, limit: '0' });
  }
});
