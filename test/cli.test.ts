/**
 * The `starsgate` command (its npm bin, as `npx starsgate` runs it) against the running stack:
 * the gateway listening on a port, the real worker, PostgreSQL, Redis and the sandbox.
 */
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import type { Gateway } from '@starsgate/gateway';
import { waitFor } from '@starsgate/platform/testing';
import { FAST_WEBHOOKS, WebhookHarness, WorkerHarness } from '@starsgate/worker/testing';
import { operatorGateway } from './support/operator-gateway';

jest.setTimeout(180_000);

const TOKEN = 'cli-token-0123456789abcdefghijklmnop';
const BIN = path.resolve(__dirname, '../node_modules/.bin/starsgate');
let h: WorkerHarness;
let hooks: WebhookHarness;
let gateway: Gateway;
let server: Server;
let url: string;
let purchaseId: string;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: FAST_WEBHOOKS });
  hooks = new WebhookHarness(h);
  hooks.start();
  gateway = operatorGateway(h, TOKEN);
  server = gateway.adminApp.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accepted = await request(gateway.app)
    .post('/api/v1/purchases')
    .send({
      product: 'stars',
      username: '@alice',
      amount: 50,
      payment_method: 'gram',
      seed: h.wallet('base64-v5r1').seed,
      idempotency_key: `cli-${Date.now()}`,
    });
  expect(accepted.status).toBe(202);
  purchaseId = accepted.body.purchase_id as string;
  await h.waitFor(purchaseId);
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await hooks?.close();
  await h?.close();
});

function starsgate(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      BIN,
      args,
      { env: { ...process.env, STARSGATE_URL: url, STARSGATE_ADMIN_TOKEN: TOKEN, ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

test('purchases list, show and stats: tables for people, --json for scripts', async () => {
  const list = await starsgate(['purchases', 'list', '--status', 'completed', '--json']);
  expect(list.code).toBe(0);
  const page = JSON.parse(list.stdout) as { data: Array<{ purchase_id: string }>; next_cursor: null };
  expect(page.data.map((row) => row.purchase_id)).toEqual([purchaseId]);

  const table = await starsgate(['purchases', 'list', '--username', 'alice']);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^PURCHASE_ID\s+STATUS\s+PRODUCT\s+QUANTITIES\s+PAYMENT_METHOD/);
  expect(table.stdout).toContain(`${purchaseId}  completed`);

  const show = await starsgate(['purchases', 'show', purchaseId]);
  expect(show.code).toBe(0);
  expect(show.stdout).toContain('timeline:');
  expect(show.stdout).toMatch(/queued\s+preparing/);
  expect(show.stdout).not.toContain(h.wallet('base64-v5r1').seed);
  // Money for people in GRAM; the base units stay in --json.
  const shown = JSON.parse((await starsgate(['purchases', 'show', purchaseId, '--json'])).stdout) as {
    paid_amount: { quote: string; quote_human: string };
  };
  expect(shown.paid_amount.quote).toMatch(/^[0-9]+$/);
  expect(shown.paid_amount.quote_human).toMatch(/^[0-9]+(\.[0-9]+)? GRAM$/);
  expect(show.stdout).toMatch(new RegExp(`paid\\s+${shown.paid_amount.quote_human.replace('.', '\\.')}\n`));
  expect(show.stdout).not.toContain(`"quote": "${shown.paid_amount.quote}"`);

  const stats = JSON.parse((await starsgate(['stats', '--json'])).stdout) as { counts: Record<string, number> };
  expect(stats.counts.completed).toBe(1);
  expect((await starsgate(['stats'])).stdout).toContain('reconciliation: 0 open');
});

test('fragment sessions: each login with its account, wallet, state since and last order; a dead one shown dead', async () => {
  const pool = h.deps.fragment;
  const login = pool.clients[0]!;
  const listed = async () => {
    const answer = await starsgate(['fragment', 'sessions', '--json']);
    expect(answer.code).toBe(0);
    const { data } = JSON.parse(answer.stdout) as { data: Array<Record<string, string | null>> };
    return data.find((row) => row.session_id === login.sessionId());
  };
  expect(await listed()).toMatchObject({
    account_id: login.accountId(),
    state: 'alive',
    wallet_address: expect.stringMatching(/^0:[0-9a-f]{64}$/),
    last_order_at: expect.any(String),
  });

  const ssid = /stel_ssid=([^;\s]+)/.exec(h.env.FRAGMENT_COOKIES!)![1]!;
  h.sandbox.fragment!.configure({ faults: { deadSessions: [ssid] } });
  try {
    await pool.warmUp();
    expect(await listed()).toMatchObject({ state: 'dead', reason: expect.stringContaining('logged-out') });
    const table = await starsgate(['fragment', 'sessions']);
    expect(table.stdout).toMatch(/^SESSION\s+ACCOUNT\s+STATE\s+SINCE/);
    expect(table.stdout).toContain(`${login.sessionId()}  ${login.accountId()}  dead`);
    expect(table.stdout).not.toMatch(/stel_/);
  } finally {
    h.sandbox.fragment!.configure({ faults: { deadSessions: [] } });
  }
  expect(await pool.recheckDead()).toEqual([login.sessionId()]);
  expect(await listed()).toMatchObject({ state: 'alive' });
});

test('errors exit non-zero with the API code: not a case, wrong token, unknown command', async () => {
  const resolve = await starsgate([
    'purchases',
    'resolve',
    purchaseId,
    '--outcome',
    'failed',
    '--reason',
    'test',
    '--operator',
    'alice',
  ]);
  expect(resolve.code).toBe(1);
  expect(resolve.stderr).toContain('PURCHASE_NOT_IN_RECONCILIATION (HTTP 409)');

  const wrong = await starsgate(['stats', '--json'], { STARSGATE_ADMIN_TOKEN: 'nope-nope-nope-nope' });
  expect(wrong.code).toBe(1);
  expect(JSON.parse(wrong.stderr)).toMatchObject({ error: { status: 403, code: 'ADMIN_TOKEN_INVALID' } });

  expect((await starsgate(['purchases', 'frobnicate'])).code).toBe(2);
  expect((await starsgate(['purchases', 'list', '--colour', 'red'])).code).toBe(2);
  const badFilter = await starsgate(['purchases', 'list', '--status', 'paid']);
  expect(badFilter.code).toBe(1);
  expect(badFilter.stderr).toContain('status');
});

test('webhooks add, list (masked), rotate, remove; deliveries list and retry', async () => {
  const added = await starsgate([
    'webhooks',
    'add',
    'http://127.0.0.1:9/hook',
    '--events',
    'purchase.completed',
    '--json',
  ]);
  expect(added.code).toBe(0);
  const endpoint = JSON.parse(added.stdout) as { id: string; secret: string };
  expect(endpoint.secret).toMatch(/^whsec_/);

  const listed = await starsgate(['webhooks', 'list']);
  expect(listed.stdout).toContain(endpoint.id);
  expect(listed.stdout).not.toContain(endpoint.secret);

  const rotated = await starsgate(['webhooks', 'rotate', endpoint.id]);
  expect(rotated.code).toBe(0);
  expect(rotated.stdout).toContain('keeps signing for 24 hours');

  // A purchase completing now: the worker's drain delivers its purchase.completed event to the
  // endpoint, which refuses connections, so the delivery fails after its (test-short) schedule.
  const accepted = await request(gateway.app)
    .post('/api/v1/purchases')
    .send({
      product: 'stars',
      username: '@bob',
      amount: 50,
      payment_method: 'gram',
      seed: h.wallet('bip39-0').seed,
      account_index: 0,
      idempotency_key: `cli-hook-${Date.now()}`,
    });
  await h.waitFor(accepted.body.purchase_id as string);
  await waitFor(
    async () => (await starsgate(['deliveries', 'list', '--state', 'failed'])).stdout.includes('purchase.completed'),
    { timeoutMs: 30_000, intervalMs: 200, what: 'a failed purchase.completed delivery' },
  );

  const deliveries = await starsgate(['deliveries', 'list', '--endpoint', endpoint.id, '--json']);
  expect(deliveries.code).toBe(0);
  const page = JSON.parse(deliveries.stdout) as { data: Array<{ id: string; event_type: string; state: string }> };
  expect(page.data.map((row) => row.event_type)).toEqual(['purchase.completed']);
  expect(page.data[0]).toMatchObject({ state: 'failed', attempts: 4, last_status: null });
  const retried = await starsgate(['deliveries', 'retry', page.data[0]!.id, '--json']);
  expect(JSON.parse(retried.stdout)).toMatchObject({ id: page.data[0]!.id, state: 'pending', attempts: 0 });

  expect((await starsgate(['webhooks', 'remove', endpoint.id])).code).toBe(0);
  const again = await starsgate(['webhooks', 'remove', endpoint.id]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('WEBHOOK_ENDPOINT_NOT_FOUND');
});

test('a GRAM top-up: listed by --product gram, shown with what it paid in GRAM', async () => {
  const accepted = await request(gateway.app)
    .post('/api/v1/purchases')
    .send({
      product: 'gram',
      username: '@dave',
      amount: 2,
      payment_method: 'gram',
      seed: h.wallet('base64-v5r1').seed,
      idempotency_key: `cli-gram-${Date.now()}`,
    });
  expect(accepted.status).toBe(202);
  const id = accepted.body.purchase_id as string;
  expect((await h.waitFor(id)).status).toBe('completed');

  const list = await starsgate(['purchases', 'list', '--product', 'gram', '--json']);
  expect(list.code).toBe(0);
  expect(
    (JSON.parse(list.stdout) as { data: Array<{ purchase_id: string }> }).data.map((row) => row.purchase_id),
  ).toEqual([id]);
  const shown = JSON.parse((await starsgate(['purchases', 'show', id, '--json'])).stdout) as {
    product: string;
    amount: number;
    paid_amount: { quote: string; quote_human: string };
  };
  expect(shown).toMatchObject({
    product: 'gram',
    amount: 2,
    paid_amount: { quote: '2000000000', quote_human: '2 GRAM' },
  });
});
