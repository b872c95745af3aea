/**
 * Several worker replicas against a toncenter that enforces its limits (the sandbox's, with
 * toncenter's real 429 answers): through the shared rate limit in Redis they stay under it
 * together, so the provider answers no 429 at all and every call still succeeds (docs/ton.md §9).
 * Without it (each replica retrying on its own) the same load draws a 429 for most calls.
 * A timing suite: "no 429 at exactly the provider's rate" holds only while requests reach the
 * sandbox as spaced as they left (a 10 % margin), so it runs once nothing else loads the machine.
 */
import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import type { Counter } from 'prom-client';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { createLogger } from '@starsgate/platform';
import { loadWorkerConfig } from '../src/config';
import { createUpstreams, type Upstreams } from '../src/upstreams';
import { createWorkerMetrics } from '../src/observability/worker-metrics';
import { UpstreamHealth } from '../src/observability/upstream-health';

jest.setTimeout(120_000);

const KEYED_RPS = 10;
let sandbox: StartedSandbox;
const opened: Upstreams[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    fragment: false,
    demoWallets: false,
    seed: 'worker-rate-limit',
    faults: { rateLimit: { rps: KEYED_RPS, keylessRps: 1 } },
  });
});
afterAll(async () => {
  await Promise.all(opened.map((upstreams) => upstreams.close?.()));
  await sandbox?.close();
});

/** The worker's config as deployed: only the upstream, Redis and (optionally) the toncenter key set. */
function replicaConfig(env: Record<string, string>) {
  return loadWorkerConfig({
    NODE_ENV: 'test',
    REDIS_URL: process.env.REDIS_URL!,
    TONCENTER_URL: `${sandbox.url}/toncenter`,
    FRAGMENT_BASE_URL: `${sandbox.url}/fragment`,
    STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}`,
    ...env,
  });
}

const logger = createLogger({ service: 'rate-limit-test', level: 'silent' });

/** `count` replicas, each built the way the worker's main builds its upstreams. */
function replicas(count: number, env: Record<string, string>) {
  return Array.from({ length: count }, () => {
    const metrics = createWorkerMetrics();
    const upstreams = createUpstreams(replicaConfig(env), logger, {
      metrics,
      health: new UpstreamHealth(1, metrics),
    });
    opened.push(upstreams);
    return { chain: upstreams.chain, metrics };
  });
}

async function limitCounts(): Promise<{ keyed: { rateLimited: number }; keyless: { rateLimited: number } }> {
  return ((await (await fetch(`${sandbox.url}/admin/faults`)).json()) as { toncenter: never }).toncenter;
}

const anyAccount = () => Address.parse(`0:${randomBytes(32).toString('hex')}`);

async function settle(): Promise<void> {
  // Both buckets (the sandbox's and ours in Redis) refill within a second of quiet.
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

test('three keyless replicas share 1 request per second: no 429, every call answered', async () => {
  await settle();
  const before = await limitCounts();
  const fleet = replicas(3, {});
  const states = await Promise.all(
    fleet.flatMap(({ chain }) => [chain.getAccountState(anyAccount()), chain.getAccountState(anyAccount())]),
  );
  expect(states.map((s) => s.status)).toEqual(Array(6).fill('nonexist'));
  const after = await limitCounts();
  expect(after.keyless.rateLimited - before.keyless.rateLimited).toBe(0);
  const waits = await Promise.all(fleet.map(({ metrics }) => metricValue(metrics.chainRate.waits)));
  const waited = waits.reduce((sum, n) => sum + n, 0);
  expect(waited).toBeGreaterThanOrEqual(5);
});

test('three replicas with a free-plan key share its 10 requests per second: no 429', async () => {
  await settle();
  const before = await limitCounts();
  const fleet = replicas(3, { TONCENTER_API_KEY: 'free-plan-key' });
  const seqnos = await Promise.all(
    fleet.flatMap(({ chain }) => Array.from({ length: 10 }, () => chain.getSeqno(anyAccount()))),
  );
  expect(seqnos).toEqual(Array(30).fill(0));
  const after = await limitCounts();
  expect(after.keyed.rateLimited - before.keyed.rateLimited).toBe(0);
});

test("one replica's 429 with Retry-After holds the other replicas back too", async () => {
  await settle();
  const [first, second] = replicas(2, { TONCENTER_API_KEY: 'paused-key', TONCENTER_RPS: '100' });
  await fetch(`${sandbox.url}/admin/faults`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ rateLimit: { rps: KEYED_RPS * 10, keylessRps: 1 }, http429: { next: 1, retryAfterSec: 2 } }),
  });
  try {
    const started = Date.now();
    const firstCall = first!.chain.getAccountState(anyAccount());
    await new Promise((resolve) => setTimeout(resolve, 300));
    await second!.chain.getAccountState(anyAccount());
    // The second replica never saw a 429, yet waited out the first one's Retry-After.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    await firstCall;
    expect(await metricValue(first!.metrics.chainRate.rateLimited)).toBe(1);
    expect(await metricValue(second!.metrics.chainRate.rateLimited)).toBe(0);
  } finally {
    await fetch(`${sandbox.url}/admin/faults`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rateLimit: { rps: KEYED_RPS, keylessRps: 1 } }),
    });
  }
});

async function metricValue(counter: Counter): Promise<number> {
  return (await counter.get()).values.reduce((sum, entry) => sum + entry.value, 0);
}
