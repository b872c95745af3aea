/**
 * Attack 14: webhook URLs could target internal addresses (cloud metadata on link-local, RFC 1918,
 * loopback): the operator API took any https URL and the worker posted wherever the name pointed
 * at delivery time, recording the network error's text. Now the gateway resolves the host and
 * refuses non-public addresses unless WEBHOOK_ALLOW_PRIVATE admits them, and the worker checks
 * again at every delivery, connects only to the address it checked, and records a coarse class.
 */
import { createServer, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import {
  connectDatabase,
  generateRingEntry,
  parseKeyRing,
  SecretVault,
  WebhookEndpoints,
  type DatabaseHandle,
} from '@starsgate/db';
import { startStack, type RunningStack } from '../support/running-stack';
import { buyStars, demoWallets, waitForStatus } from './support/stack-client';

jest.setTimeout(240_000);

const SECRET_KEY = generateRingEntry('w1');
let stack: RunningStack;
let database: DatabaseHandle;
let receiver: Server;
let hits = 0;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    hits += 1;
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  stack = await startStack({
    STARSGATE_SECRET_KEY: SECRET_KEY,
    // As production: no allowance (npm start alone admits loopback).
    WEBHOOK_ALLOW_PRIVATE: 'none',
    WEBHOOK_DRAIN_INTERVAL_MS: '200',
    WEBHOOK_RETRY_BASE_MS: '100',
    WEBHOOK_RETRY_MAX_MS: '200',
    WEBHOOK_MAX_ATTEMPTS: '2',
    POLL_INTERVAL_MS: '300',
  });
  database = connectDatabase(stack.database.url, { max: 2 });
});
afterAll(async () => {
  await database?.close();
  await stack?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

const INTERNAL_URLS = [
  'https://169.254.169.254/latest/meta-data/', // cloud metadata (link-local)
  'https://10.0.0.5/hook', // RFC 1918
  'https://192.168.1.1/hook',
  'https://172.16.0.1/hook',
  'https://127.0.0.1/hook', // loopback
  'https://localhost/hook', // a name resolving to loopback
  'https://100.64.0.1/hook', // CGNAT
  'https://[fd00::1]/hook', // ULA
  'https://[fe80::1]/hook', // IPv6 link-local
  'https://[::1]/hook',
  'https://[::ffff:10.0.0.5]/hook', // IPv4-mapped
  'https://0.0.0.0/hook',
];

test('the operator API refuses webhook URLs whose host is internal, naming the field', async () => {
  const answers = await Promise.all(
    INTERNAL_URLS.map(async (url) => {
      const response = await fetch(`${stack.adminUrl}/admin/api/webhook-endpoints`, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url }),
      });
      const body = (await response.json()) as { code?: string; details?: Array<{ field: string }> };
      return { url, status: response.status, code: body.code, field: body.details?.[0]?.field };
    }),
  );
  expect(answers).toEqual(
    INTERNAL_URLS.map((url) => ({ url, status: 400, code: 'WEBHOOK_URL_NOT_ALLOWED', field: 'url' })),
  );
  const { rows } = await database.pool.query('SELECT url FROM webhook_endpoints');
  expect(rows).toEqual([]);
});

test('a stored endpoint that now points inside is re-checked at delivery: no request, a coarse error', async () => {
  // As if its name had been re-pointed after registration (DNS rebinding) or it predates the check.
  const { port } = receiver.address() as { port: number };
  const endpoints = new WebhookEndpoints(database.db, new SecretVault(parseKeyRing(SECRET_KEY)));
  const { endpoint } = await endpoints.create({
    url: `http://127.0.0.1:${port}/hooks`,
    events: ['purchase.completed'],
  });

  const wallet = (await demoWallets(stack)).find((entry) => entry.id === 'bip39-0')!;
  const id = await buyStars(stack, wallet, '@alice', randomUUID());
  await waitForStatus(stack, id, 'completed');

  let delivery: { state: string; attempts: number; last_status: number | null; last_error: string | null } | undefined;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const { rows } = await database.pool.query<NonNullable<typeof delivery>>(
      'SELECT state, attempts, last_status, last_error FROM webhook_deliveries WHERE endpoint_id = $1',
      [endpoint.id],
    );
    delivery = rows[0];
    if (delivery?.state === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect(delivery).toEqual({ state: 'failed', attempts: 2, last_status: null, last_error: 'address_not_allowed' });
  expect(hits).toBe(0);
});
