/**
 * SIGTERM on the built bundles (what the images run), as Kubernetes and compose send it on a
 * rollout or a scale-down: a gateway under load loses no accepted request, and a worker stopped
 * mid-purchase finishes its step or leaves it for the next worker, with no purchase paid twice.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { generateRingEntry, parseKeyRing, sealKeyOf } from '@starsgate/db';
import { freePort, waitFor } from '@starsgate/platform/testing';
import { assertPaidOnceAndDelivered, WorkerHarness } from '@starsgate/worker/testing';
import { root } from './repo-root';
import { buildApps, startImage, type ImageLayout, type RunningImage } from './image-layout';
import { imageTargets } from './image-targets';

jest.setTimeout(240_000);

/** The built dist in the repository: the bundle the image runs, started with its CMD and ENV. */
const repository: ImageLayout = { dir: root, remove: () => undefined };
const gatewayTarget = imageTargets.find((target) => target.name === 'gateway')!;
const workerTarget = imageTargets.find((target) => target.name === 'worker')!;
const BIP39 = 'cook voyage document eight skate token alien guide drink uncle term abuse';
const running: RunningImage[] = [];

beforeAll(() => buildApps());

afterAll(() => {
  for (const image of running) if (image.child.exitCode === null) image.child.kill('SIGKILL');
});

describe('gateway', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.drop();
  });

  it('SIGTERM under load: every 202 it answered has its purchase row, and it exits 0 within its drain', async () => {
    const port = await freePort();
    const gateway = startImage(gatewayTarget, repository, {
      PORT: String(port),
      ADMIN_PORT: String(await freePort()),
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: process.env.REDIS_URL!,
      BULLMQ_PREFIX: `gs-${randomBytes(3).toString('hex')}`,
      STARSGATE_SEAL_KEY: sealKeyOf(parseKeyRing(generateRingEntry('k1'))),
      STARSGATE_FINGERPRINT_KEY: `f1:${randomBytes(32).toString('base64')}`,
      FRAGMENT_READ_COOKIES: 'stel_ssid=graceful-test',
      TON_PROOF_DOMAINS: 'localhost',
      RATE_LIMIT_MAX: '1000000',
      SHUTDOWN_TIMEOUT_MS: '10000',
      LOG_LEVEL: 'warn',
    });
    running.push(gateway);
    const url = `http://127.0.0.1:${port}`;
    await waitFor(async () => (await fetch(`${url}/readyz`).catch(() => null))?.status === 200, {
      timeoutMs: 60_000,
      intervalMs: 250,
      what: `gateway ready (${gateway.output()})`,
    });

    const accepted: string[] = [];
    const statuses = new Map<number, number>();
    let refused = 0;
    let signalledAt = 0;
    let acceptedAfterSignal = 0;
    let stopped = false;
    const client = async (worker: number) => {
      for (let n = 0; !stopped; n += 1) {
        try {
          const response = await fetch(`${url}/api/v1/purchases`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              product: 'stars',
              username: '@alice',
              amount: 50 + (n % 100),
              payment_method: 'gram',
              seed: BIP39,
              account_index: 0,
              idempotency_key: `graceful-${worker}-${n}-${randomUUID()}`,
            }),
          });
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          const body = (await response.json()) as { purchase_id?: string };
          if (response.status === 202) {
            accepted.push(body.purchase_id!);
            if (signalledAt) acceptedAfterSignal += 1;
          }
        } catch {
          // Refused or reset once the gateway stopped listening: nothing was accepted.
          refused += 1;
          if (signalledAt) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const clients = Array.from({ length: 24 }, (_, worker) => client(worker));
    await waitFor(() => accepted.length >= 200, { timeoutMs: 120_000, intervalMs: 250, what: 'load under way' });
    signalledAt = Date.now();
    gateway.child.kill('SIGTERM');
    const exit = await gateway.exited;
    const drainMs = Date.now() - signalledAt;
    stopped = true;
    await Promise.all(clients);

    expect(exit).toEqual({ code: 0, signal: null });
    // Requests in flight at the signal were answered, within the drain budget (before any SIGKILL).
    expect(acceptedAfterSignal).toBeGreaterThan(0);
    expect(drainMs).toBeLessThan(10_000 + 5_000);
    // Only acceptances and draining refusals: never a 5xx other than 503 for a request in the drain.
    expect([...statuses.keys()].filter((status) => status !== 202 && status !== 503)).toEqual([]);
    const { rows } = await database.pool.query<{ id: string }>('SELECT id FROM purchases WHERE id = ANY($1::uuid[])', [
      accepted,
    ]);
    expect(new Set(rows.map((row) => row.id))).toEqual(new Set(accepted));
    process.stdout.write(
      `gateway SIGTERM under 24 clients: ${accepted.length} accepted (${acceptedAfterSignal} answered after the signal), ` +
        `${refused} refused connections, drained in ${drainMs} ms\n`,
    );
  });
});

describe('worker', () => {
  let h: WorkerHarness;
  beforeAll(async () => {
    h = await WorkerHarness.start({ worker: false, env: { SHUTDOWN_TIMEOUT_MS: '20000' } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('SIGTERM mid-purchase: it exits 0 after its active step, the next worker finishes, and nothing is paid twice', async () => {
    const wallets = [{ seed: h.wallet('bip39-0').seed, account_index: 0 }, { seed: h.wallet('base64-v5r1').seed }];
    const ids: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const created = await h.createPurchase({
        product: 'stars',
        username: ['@alice', '@bob', '@carol'][i % 3]!,
        amount: 50 + i,
        payment_method: 'gram',
        ...wallets[i % wallets.length]!,
      });
      ids.push(created.id);
    }
    const first = startImage(workerTarget, repository, h.env);
    running.push(first);
    // Mid-purchase: a payment is being signed, broadcast or confirmed.
    await waitFor(
      async () =>
        (await Promise.all(ids.map((id) => h.find(id)))).some((row) =>
          ['sending', 'submitted', 'confirming'].includes(row.status),
        ),
      { timeoutMs: 120_000, intervalMs: 250, what: `a purchase mid-payment (${first.output()})` },
    );
    const signalledAt = Date.now();
    first.child.kill('SIGTERM');
    expect(await first.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - signalledAt).toBeLessThan(20_000 + 5_000);

    const metricsPort = await freePort();
    const next = startImage(workerTarget, repository, { ...h.env, WORKER_METRICS_PORT: String(metricsPort) });
    running.push(next);
    await assertPaidOnceAndDelivered(h, ids);
    // The first worker may have settled every purchase (a batch settles together) while this one
    // was still starting, and a worker handles SIGTERM once started: signal it once it is ready.
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${metricsPort}/readyz`).catch(() => null))?.status === 200,
      { timeoutMs: 60_000, intervalMs: 200, what: `the next worker ready (${next.output()})` },
    );
    next.child.kill('SIGTERM');
    expect(await next.exited).toEqual({ code: 0, signal: null });
    for (const id of ids) {
      const events = await h.purchases.events(id);
      expect(events.filter((event) => event.toStatus === 'sending' && event.fromStatus !== 'sending')).toHaveLength(1);
    }
  });
});
