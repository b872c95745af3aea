/**
 * Attack 16 (docs/security.md): the CLI sent the admin token over plain http to any host, and a
 * production gateway or worker started with the sandbox's published key-encryption key.
 */
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { freePort } from '@starsgate/platform/testing';
import { freshBundle, type ServiceKind } from '@starsgate/stack';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'node_modules/.bin/starsgate');
const TOKEN = 'sg_security-test-token-0123456789abcdef';
/** The sandbox overlay's published keys (k8s/overlays/sandbox/demo-secrets/), by the service that takes each. */
const PUBLISHED_SANDBOX_KEYS: Record<Exclude<ServiceKind, 'sandbox'>, Record<string, string>> = {
  gateway: {
    STARSGATE_SEAL_KEY: 'k2:nFdw9v0zKc4vc7EyTAXyE3c7jPR+B2muYujJEUC4qHI=',
    STARSGATE_FINGERPRINT_KEY: 'f1:c2FuZGJveC1kZW1vLWZpbmdlcnByaW50LWtleSEhISE=',
  },
  worker: {
    STARSGATE_SECRET_KEY:
      'k2:x25519:c2FuZGJveC1kZW1vLXgyNTUxOS1ub3Qtc2VjcmV0ISE=,k1:c2FuZGJveC1kZW1vLWtleS1ub3QtYS1zZWNyZXQtISE=',
  },
};

/** A stand-in operator API that records what reaches it. */
async function recordingServer(host: string): Promise<{ server: Server; url: string; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(503, { 'Content-Type': 'application/json' }).end('{"code":"SERVICE_UNAVAILABLE","message":"x"}');
  });
  server.listen(0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${host}:${port}`, seen };
}

function starsgate(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(BIN, args, { env: { ...process.env, STARSGATE_ADMIN_TOKEN: TOKEN, ...env } }, (error, _out, stderr) =>
      resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

function nonLoopbackAddress(): string {
  const address = Object.values(networkInterfaces())
    .flat()
    .find((candidate) => candidate && candidate.family === 'IPv4' && !candidate.internal)?.address;
  if (!address) throw new Error('this machine has no non-loopback IPv4 address to test against');
  return address;
}

describe('the CLI and plain http', () => {
  const servers: Server[] = [];
  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('refuses to send the admin token over http to a non-loopback host, naming the way to allow it', async () => {
    const remote = await recordingServer(nonLoopbackAddress());
    servers.push(remote.server);
    const refused = await starsgate(['stats'], { STARSGATE_URL: remote.url });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('STARSGATE_ALLOW_INSECURE_HTTP');
    expect(refused.stderr).toContain('--allow-insecure-http');
    expect(remote.seen).toHaveLength(0);

    // The refusal is what kept the token home: allowed explicitly, it does go out.
    await starsgate(['stats'], { STARSGATE_URL: remote.url, STARSGATE_ALLOW_INSECURE_HTTP: '1' });
    await starsgate(['stats', '--allow-insecure-http'], { STARSGATE_URL: remote.url });
    expect(remote.seen.map((headers) => headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${TOKEN}`]);
  });

  it('still talks plain http to loopback', async () => {
    const local = await recordingServer('127.0.0.1');
    servers.push(local.server);
    await starsgate(['stats'], { STARSGATE_URL: local.url });
    expect(local.seen).toHaveLength(1);
  });
});

describe('production and the sandbox key-encryption key', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.drop());

  /** Starts an app's bundle as its image does; answers how it ended within the time, or `running`. */
  async function startApp(
    service: keyof typeof PUBLISHED_SANDBOX_KEYS,
  ): Promise<{ outcome: 'exited' | 'running'; code: number | null; output: string }> {
    const child = spawn(process.execPath, [freshBundle(service)], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: 'info',
        PORT: String(await freePort()),
        ADMIN_PORT: String(await freePort()),
        WORKER_METRICS_PORT: String(await freePort()),
        DATABASE_URL: database.url,
        FRAGMENT_COOKIES: 'stel_ssid=security-test',
        TON_PROOF_DOMAINS: 'localhost',
        STARSGATE_SECRET_KEY: '',
        ...PUBLISHED_SANDBOX_KEYS[service],
      },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    const outcome = await Promise.race([
      exited.then(() => 'exited' as const),
      new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 45_000)),
    ]);
    if (outcome === 'running') {
      child.kill('SIGKILL');
      await exited;
    }
    return { outcome, code: child.exitCode, output };
  }

  it.each(['gateway', 'worker'] as const)(
    'the %s refuses to start',
    async (service) => {
      const started = await startApp(service);
      expect(started.outcome).toBe('exited');
      expect(started.code).not.toBe(0);
      expect(started.output).toContain('is a published sandbox key');
    },
    90_000,
  );
});
