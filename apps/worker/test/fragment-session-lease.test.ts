/**
 * Two workers sharing one Fragment login (docs/fragment-protocol.md §20.1): two harnesses, each
 * with its own database, queue and in-process worker, drive the same login of one sandbox whose
 * simulator runs the strictFlow fault (an init of flows that interleaved on the session is refused
 * and counted). Through the session's lease in Redis their flows never interleave: every purchase
 * completes and the simulator refuses no init.
 */
import { randomBytes } from 'node:crypto';
import { startSandbox, type StartedSandbox } from '@starsgate/sandbox';
import { FAST_FRAGMENT, WorkerHarness } from './support/worker-harness';

jest.setTimeout(120_000);

const seed = `shared-login-${randomBytes(3).toString('hex')}`;
let sandbox: StartedSandbox;
const harnesses: WorkerHarness[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    seed,
    blockMs: 200,
    // A little latency, so that two workers' flows left to themselves do interleave.
    fragment: { ...FAST_FRAGMENT, latency: { minMs: 5, maxMs: 25 }, faults: { strictFlow: true } },
  });
  // Both harnesses use the sandbox; it is closed here, once.
  const shared = () => Object.create(sandbox, { close: { value: () => Promise.resolve() } }) as StartedSandbox;
  for (let i = 0; i < 2; i++) harnesses.push(await WorkerHarness.start({ upstream: shared(), seed }));
});

afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await sandbox?.close();
});

test('two workers on one Fragment login never interleave their flows', async () => {
  const [first, second] = harnesses as [WorkerHarness, WorkerHarness];
  expect(first.env.FRAGMENT_COOKIES).toBe(second.env.FRAGMENT_COOKIES);
  const orders = async (h: WorkerHarness, walletId: 'bip39-0' | 'ton24-v4r2') =>
    Promise.all(
      ['alice', 'bob', 'carol'].map(async (user) => {
        const row = await h.createPurchase({
          product: 'stars',
          username: `@${user}`,
          amount: 50,
          payment_method: 'gram',
          seed: h.wallet(walletId).seed,
          ...(walletId === 'bip39-0' ? { account_index: 0 } : {}),
        });
        return row.id;
      }),
    );
  const [firstIds, secondIds] = await Promise.all([orders(first, 'bip39-0'), orders(second, 'ton24-v4r2')]);
  const settled = [...(await first.waitForAll(firstIds)), ...(await second.waitForAll(secondIds))];
  expect(settled.map((row) => row.status)).toEqual(Array(6).fill('completed'));
  expect(sandbox.fragment!.stats().strictFlowRejections).toBe(0);
});
