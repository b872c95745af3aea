import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { starsOrder } from './support/test-gateway';

const MAIN = path.join(__dirname, '..', 'src', 'main.ts');
let database: TestDatabase;
let child: ChildProcess;
let output = '';

async function waitReady(url: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gateway did not become ready:\n${output}`);
}

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await database.drop();
});

it('on SIGTERM finishes the request in flight, closes its pools and exits 0', async () => {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: {
      ...process.env,
      PORT: String(port),
      ADMIN_PORT: String(port + 1),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      LOG_LEVEL: 'info',
      STARSGATE_SECRET_KEY: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  await waitReady(url);

  // A request whose body is still arriving when SIGTERM lands: it must be served, not dropped.
  const body = JSON.stringify(starsOrder());
  const request = http.request(`${url}/api/v1/purchases`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
  });
  const answered = once(request, 'response') as Promise<[http.IncomingMessage]>;
  request.write(body.slice(0, 20));
  await new Promise((resolve) => setTimeout(resolve, 200));
  child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 300));
  request.end(body.slice(20));
  const [response] = await answered;
  expect(response.statusCode).toBe(202);
  response.resume();
  const [code] = (await once(child, 'exit')) as [number | null];
  expect(code).toBe(0);
  expect(output).toContain('"message":"draining"');
  expect(output).toContain('"message":"stopped"');
  // Stopped means stopped: new connections are refused.
  await expect(fetch(`${url}/livez`)).rejects.toThrow();
  const rows = await database.pool.query('SELECT count(*)::int AS n FROM purchases');
  expect(rows.rows[0].n).toBe(1);
});
