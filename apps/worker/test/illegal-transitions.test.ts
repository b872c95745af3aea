/**
 * The worker enforces the domain's lifecycle: a write that would move a purchase along a move
 * the table does not have throws IllegalTransitionError before anything is written.
 */
import { IllegalTransitionError } from '@starsgate/domain';
import { HeldPurchase } from '../src/purchases/persistence/held-purchase';
import { decide } from '../src/purchases/persistence/purchase-decision';
import { applyDecision, enterWalletSender } from '../src/purchases/persistence/purchase-writer';
import { batchLeaseOwner, walletLeaseName } from '../src/purchases/wallet/wallet-lease';
import { WorkerHarness } from './support/worker-harness';

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ worker: false });
});

afterAll(async () => {
  await h?.close();
});

async function heldPreparing(amount: number): Promise<HeldPurchase> {
  const { seed } = h.wallet('base64-v5r1');
  const created = await h.createPurchase(
    { product: 'stars', amount, payment_method: 'gram', username: '@alice', seed },
    { enqueue: false },
  );
  const attempt = await h.deps.transitions.claim(created.id, 'job', 30_000);
  if (!attempt?.claimed) throw new Error('not claimed');
  expect(attempt.row.status).toBe('preparing');
  return new HeldPurchase(h.deps, attempt.row, 'job', attempt.sealedSecret);
}

it('refuses preparing → completed and preparing → reconciliation_required, writing nothing', async () => {
  const purchase = await heldPreparing(71);
  const before = await h.find(purchase.row.id);
  await expect(
    applyDecision(h.deps, purchase, decide.move(h.deps, purchase.row, { status: 'completed' }, 'skipping ahead')),
  ).rejects.toBeInstanceOf(IllegalTransitionError);
  await expect(
    applyDecision(
      h.deps,
      purchase,
      decide.reconcile(h.deps, purchase.row, { code: 'OUTCOME_UNKNOWN' }, {}, 'nothing was sent'),
    ),
  ).rejects.toThrow('cannot move from preparing to reconciliation_required');
  await expect(
    applyDecision(h.deps, [purchase], decide.move(h.deps, null, { status: 'confirming' }, 'batch skip')),
  ).rejects.toBeInstanceOf(IllegalTransitionError);
  const wallet = h.wallet('base64-v5r1').rawAddress;
  await expect(
    enterWalletSender(
      h.deps,
      purchase,
      { name: walletLeaseName(wallet), owner: batchLeaseOwner('x'), ttlMs: 30_000 },
      1_000,
      { changes: { status: 'submitted' } },
    ),
  ).rejects.toBeInstanceOf(IllegalTransitionError);
  const after = await h.find(purchase.row.id);
  expect(after.status).toBe('preparing');
  expect(after.version).toBe(before.version);
  expect(await h.deps.leases.acquire(walletLeaseName(wallet), 'probe', 1)).not.toBeNull();
});

it('lets the moves of the table through', async () => {
  const purchase = await heldPreparing(72);
  await applyDecision(h.deps, purchase, decide.fail(h.deps, { code: 'NOT_EXECUTED' }, 'allowed: preparing → failed'));
  expect((await h.find(purchase.row.id)).status).toBe('failed');
});
