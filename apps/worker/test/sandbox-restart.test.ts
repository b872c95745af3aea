/**
 * A restarted sandbox keeps its world (issue 35 §6): the chain's state and the Fragment
 * simulator's orders and histories are saved under its data dir and taken back at start. An order
 * paid but not yet delivered when the sandbox stopped is still delivered, and an identical order
 * made after the restart is proven by the history, which still lists the recent one.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort, waitFor } from '@starsgate/platform/testing';
import { deriveDemoWallets, startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import type { FragmentConfigPatch } from '@starsgate/sandbox/fragment';
import { FAST_FRAGMENT, WorkerHarness } from './support/worker-harness';

jest.setTimeout(150_000);

const seed = `restart-${randomBytes(3).toString('hex')}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-restart-'));
let port: number;
let sandbox: StartedSandbox;
let h: WorkerHarness;

const startWorld = (fragment: FragmentConfigPatch = {}) =>
  startSandbox({ port, seed, dataDir, blockMs: 200, saveIntervalMs: 200, fragment: { ...FAST_FRAGMENT, ...fragment } });

beforeAll(async () => {
  port = await freePort();
  // Deliveries take seconds in the first world, so one is still under way when it stops.
  sandbox = await startWorld({ doneDelay: { minMs: 4_000, maxMs: 4_000 } });
  h = await WorkerHarness.start({
    seed,
    upstream: {
      url: sandbox.url,
      usdtMaster: sandbox.chain.usdtMaster,
      receivingAddresses: sandbox.fragment!.receivingAddresses,
      close: () => sandbox.close(),
    },
  });
});

afterAll(async () => {
  await h?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

test('an order in flight and a recent identical one still resolve after the sandbox restarts', async () => {
  const wallets = await deriveDemoWallets(seed);
  const seedOf = (id: string) => wallets.find((wallet) => wallet.id === id)!.seed;
  const order = { product: 'stars' as const, username: '@erin', payment_method: 'gram' as const };

  const recent = await h.waitFor((await h.createPurchase({ ...order, amount: 70, seed: seedOf('base64-v5r1') })).id);
  expect(recent.status).toBe('completed');

  // Paid on chain, not yet delivered by Fragment: then the sandbox stops and starts again.
  const inFlight = await h.createPurchase({ ...order, amount: 75, seed: seedOf('ton24-v4r2') });
  await h.waitFor(inFlight.id, ['confirming']);
  const ref = (await h.find(inFlight.id)).fragmentRef!;
  const statusOf = async () =>
    (
      (await (await fetch(`${sandbox.url}/admin/fragment/orders`)).json()) as Array<{ ref: string; status: string }>
    ).find((entry) => entry.ref === ref)?.status;
  await waitFor(async () => ((await statusOf()) === 'processing' ? true : undefined), {
    timeoutMs: 10_000,
    intervalMs: 50,
    what: 'the simulator to process the in-flight order',
  });
  await sandbox.close();
  sandbox = await startWorld();
  expect(await statusOf()).toBe('processing');

  const twin = await h.createPurchase({ ...order, amount: 70, seed: seedOf('base64-v5r1') });
  const [delivered, identical] = await Promise.all([h.waitFor(inFlight.id), h.waitFor(twin.id)]);
  expect({ status: delivered.status, error: delivered.error }).toEqual({ status: 'completed', error: null });
  expect({ status: identical.status, error: identical.error }).toEqual({ status: 'completed', error: null });
});
