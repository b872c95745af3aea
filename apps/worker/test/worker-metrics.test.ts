/**
 * The real worker process (its main, as deployed) serves /metrics, /livez and /readyz on
 * WORKER_METRICS_PORT; its series move by exactly what real purchases did against the sandbox.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { SERVICE_VERSION } from '@starsgate/platform';
import { WebhookEndpoints } from '@starsgate/db';
import { freePort, parsePrometheusText, sampleSum, waitForHttp, type Sample } from '@starsgate/platform/testing';
import { spawnWorker, type WorkerProcess } from './support/worker-process';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;
let worker: WorkerProcess;
let base: string;
let receiver: Server;
let received = 0;

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${base}/metrics`);
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

beforeAll(async () => {
  h = await WorkerHarness.start({ worker: false, env: { CONFIRMING_MAX_AGE_MS: '6000' } });
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  receiver = createHttpServer((_req, res) => {
    received += 1;
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverPort = (receiver.address() as { port: number }).port;
  await new WebhookEndpoints(h.database.db, h.vault).create({
    url: `http://127.0.0.1:${receiverPort}/hook`,
    events: ['purchase.completed'],
  });
  worker = spawnWorker({
    ...h.env,
    WORKER_METRICS_PORT: String(port),
    WORKER_METRICS_HOST: '127.0.0.1',
    WEBHOOK_DRAIN_INTERVAL_MS: '200',
  });
  await waitForHttp(`${base}/livez`).catch((error: unknown) => {
    throw new Error(`worker metrics listener never came up: ${String(error)}\n${worker.stderr()}`);
  });
});

afterAll(async () => {
  await worker?.kill();
  await new Promise((resolve) => receiver?.close(resolve));
  await h?.close();
});

const order = (overrides: Partial<PurchaseInput>): PurchaseInput => ({
  product: 'stars',
  amount: 50,
  payment_method: 'gram',
  username: '@alice',
  seed: h.wallet('base64-v5r1').seed,
  ...overrides,
});

test('/livez answers and /readyz checks PostgreSQL, Redis and the BullMQ worker', async () => {
  expect(await (await fetch(`${base}/livez`)).json()).toEqual({ status: 'ok', version: SERVICE_VERSION });
  const ready = await fetch(`${base}/readyz`);
  expect(ready.status).toBe(200);
  expect(await ready.json()).toEqual({ status: 'ok', checks: { postgres: 'ok', redis: 'ok', worker: 'ok' } });
});

test('the deployed worker hashes TON cells on node:crypto (the start-up self-check of the build-time patch)', async () => {
  expect(sampleSum(await scrape(), 'starsgate_ton_native_crypto')).toBe(1);
});

test('purchase counters and histograms move by what real purchases did', async () => {
  const before = await scrape();
  const finished = (labels: Record<string, string>) => (samples: Sample[]) =>
    sampleSum(samples, 'starsgate_purchases_finished_total', labels);
  const completedStarsGram = finished({
    mode: 'server_signed',
    product: 'stars',
    payment_method: 'gram',
    status: 'completed',
  });
  const completedPremiumUsdt = finished({ product: 'premium', payment_method: 'usdt', status: 'completed' });
  const failedStarsGram = finished({ product: 'stars', payment_method: 'gram', status: 'failed' });
  const endToEndCount = (samples: Sample[]) => sampleSum(samples, 'starsgate_purchase_end_to_end_seconds_count');
  const queuedObserved = (samples: Sample[]) =>
    sampleSum(samples, 'starsgate_purchase_status_duration_seconds_count', { status: 'queued' });

  const created = [
    await h.createPurchase(order({})),
    await h.createPurchase(order({ amount: 75, seed: h.wallet('bip39-0').seed, account_index: 0 })),
    await h.createPurchase(order({ product: 'premium', amount: 3, payment_method: 'usdt', username: '@bob' })),
    await h.createPurchase(order({ username: '@nobody_known_here', seed: h.wallet('ton24-v4r2').seed })),
  ];
  const rows = await h.waitForAll(created.map((row) => row.id));
  expect(rows.map((row) => row.status)).toEqual(['completed', 'completed', 'completed', 'failed']);

  // Each completion's webhook reached the receiver once; the worker counts an attempt once it is recorded.
  const delivered = (samples: Sample[]) =>
    sampleSum(samples, 'starsgate_webhook_deliveries_total', { outcome: 'delivered' });
  const deadline = Date.now() + 20_000;
  let after = await scrape();
  while (delivered(after) < 3 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    after = await scrape();
  }
  expect(delivered(after)).toBe(3);
  expect(received).toBe(3);
  expect(completedStarsGram(after) - completedStarsGram(before)).toBe(2);
  expect(completedPremiumUsdt(after) - completedPremiumUsdt(before)).toBe(1);
  expect(failedStarsGram(after) - failedStarsGram(before)).toBe(1);
  expect(endToEndCount(after) - endToEndCount(before)).toBe(4);
  expect(queuedObserved(after) - queuedObserved(before)).toBe(4);
  // Every completed purchase left confirming once.
  const confirming = (samples: Sample[]) =>
    sampleSum(samples, 'starsgate_purchase_status_duration_seconds_count', { status: 'confirming' });
  expect(confirming(after) - confirming(before)).toBe(3);

  // Real upstream calls were counted by method; chain and Fragment both answered.
  expect(sampleSum(after, 'starsgate_upstream_requests_total', { upstream: 'chain', outcome: 'ok' })).toBeGreaterThan(
    sampleSum(before, 'starsgate_upstream_requests_total', { upstream: 'chain', outcome: 'ok' }),
  );
  expect(
    sampleSum(after, 'starsgate_upstream_requests_total', { upstream: 'fragment', method: 'initRequest' }) -
      sampleSum(before, 'starsgate_upstream_requests_total', { upstream: 'fragment', method: 'initRequest' }),
  ).toBe(3);
  expect(sampleSum(after, 'starsgate_fragment_session_valid', { session: '0' })).toBe(1);
  expect(sampleSum(after, 'starsgate_queue_jobs', { queue: 'purchases', state: 'active' })).toBe(0);
  expect(sampleSum(after, 'starsgate_wallet_leases_held')).toBe(0);
  expect(sampleSum(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);

  // No sample is labelled with an id, a username or an address.
  const labelValues = after.flatMap((sample) => Object.values(sample.labels));
  for (const row of rows) {
    expect(labelValues).not.toContain(row.id);
    expect(labelValues.some((value) => value.includes(row.username.replace('@', '')))).toBe(false);
    expect(labelValues).not.toContain(row.walletAddress);
  }
});

test('an uncertain outcome shows as an open reconciliation case with its age', async () => {
  h.sandbox.fragment!.configure({ faults: { done: 'never' } });
  try {
    const row = await h.waitFor((await h.createPurchase(order({ username: '@dave' }))).id);
    expect(row.status).toBe('reconciliation_required');
  } finally {
    h.sandbox.fragment!.configure({ faults: { done: 'normal' } });
  }
  await new Promise((resolve) => setTimeout(resolve, 1_100));
  const samples = await scrape();
  expect(sampleSum(samples, 'starsgate_reconciliation_open')).toBe(1);
  expect(sampleSum(samples, 'starsgate_purchases_open', { status: 'reconciliation_required' })).toBe(1);
  expect(sampleSum(samples, 'starsgate_reconciliation_oldest_age_seconds')).toBeGreaterThan(0.5);
  expect(sampleSum(samples, 'starsgate_purchases_finished_total', { status: 'reconciliation_required' })).toBe(1);
});

test('a refused Fragment login turns its session gauge to 0', async () => {
  h.sandbox.fragment!.configure({ faults: { sessionExpired: true } });
  try {
    const row = await h.waitFor((await h.createPurchase(order({ username: '@erin' }))).id);
    expect(row.status).toBe('failed');
  } finally {
    h.sandbox.fragment!.configure({ faults: { sessionExpired: false } });
  }
  expect(sampleSum(await scrape(), 'starsgate_fragment_session_valid', { session: '0' })).toBe(0);
});

test('a Cloudflare block page is counted as such; the login stays valid and the purchase completes', async () => {
  const blocked = (samples: Sample[]) =>
    sampleSum(samples, 'starsgate_fragment_cloudflare_total', { session: '0', stop: 'block' });
  const before = blocked(await scrape());
  h.sandbox.fragment!.configure({ faults: { methods: { '*': { cloudflareBlockRate: 1, count: 2 } } } });
  const row = await h.waitFor((await h.createPurchase(order({ username: '@carol', amount: 75 }))).id);
  expect(row.status).toBe('completed');
  const after = await scrape();
  expect(blocked(after) - before).toBeGreaterThanOrEqual(1);
  expect(sampleSum(after, 'starsgate_fragment_session_valid', { session: '0' })).toBe(1);
});
