import { Address } from '@ton/core';
import { WorkerHarness, type PurchaseInput } from './support/worker-harness';

jest.setTimeout(180_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start();
});

afterAll(async () => {
  await h?.close();
});

type WalletCase = {
  label: string;
  wallet: () => Pick<PurchaseInput, 'seed' | 'wallet_address' | 'account_index'>;
  raw: () => string;
};

const wallets: WalletCase[] = [
  {
    label: '12-word by index',
    wallet: () => ({ seed: h.wallet('bip39-0').seed, account_index: 0 }),
    raw: () => h.wallet('bip39-0').rawAddress,
  },
  {
    label: '12-word by address',
    wallet: () => ({ seed: h.wallet('bip39-1').seed, wallet_address: h.wallet('bip39-1').address }),
    raw: () => h.wallet('bip39-1').rawAddress,
  },
  {
    label: '24-word (deployed V4R2, detected)',
    wallet: () => ({ seed: h.wallet('ton24-v4r2').seed }),
    raw: () => h.wallet('ton24-v4r2').rawAddress,
  },
  {
    label: 'Base64 key',
    wallet: () => ({ seed: h.wallet('base64-v5r1').seed }),
    raw: () => h.wallet('base64-v5r1').rawAddress,
  },
];

const orders: Array<Pick<PurchaseInput, 'product' | 'amount' | 'payment_method'>> = [
  { product: 'stars', amount: 50, payment_method: 'gram' },
  { product: 'stars', amount: 75, payment_method: 'usdt' },
  { product: 'premium', amount: 3, payment_method: 'gram' },
  { product: 'premium', amount: 6, payment_method: 'usdt' },
];

const mismatches = async () =>
  (await h.deps.fragmentFrom.metrics.fragmentFromMismatches.get()).values.reduce((sum, v) => sum + v.value, 0);

// docs/fragment-protocol.md §17: Fragment may name the wallet linked to its account as
// transaction.from (linked, the simulator's default) or echo the account sent (echo).
describe.each(['linked', 'echo'] as const)('%s mode', (mode) => {
  beforeAll(() => h.sandbox.fragment!.configure({ faults: { transactionFrom: mode } }));
  afterAll(() => h.sandbox.fragment!.configure({ faults: { transactionFrom: 'linked' } }));

  describe.each(wallets)('$label wallet', (walletCase) => {
    test.each(orders)(
      '$product $amount via $payment_method ends completed, paid and delivered exactly once',
      async (order) => {
        const mismatchesBefore = await mismatches();
        const created = await h.createPurchase({ ...order, username: '@alice', ...walletCase.wallet() });
        const done = await h.waitFor(created.id);
        expect({ status: done.status, error: done.error }).toEqual({ status: 'completed', error: null });

        const request = done.paymentRequest as {
          fragmentFrom: string;
          fragmentMessage?: unknown;
          message: { address: string };
        };
        const linked = h.sandbox.fragment!.linkedWallet.address.toRawString();
        expect(request.fragmentFrom).toBe(mode === 'linked' ? linked : walletCase.raw());
        expect(await mismatches()).toBe(mismatchesBefore + (mode === 'linked' ? 1 : 0));
        if (order.payment_method === 'usdt') {
          // Signed through the payer's own jetton wallet; in linked mode Fragment's message (aimed at
          // the linked wallet's jetton wallet) is kept beside it.
          const own = await h.chain.getJettonWalletAddress(h.config.usdtMaster, Address.parse(walletCase.raw()));
          expect(request.message.address).toBe(own.toRawString());
          expect(request.fragmentMessage !== undefined).toBe(mode === 'linked');
        }

        expect(done.walletAddress).toBe(walletCase.raw());
        expect(done.transactionHash).toMatch(/^[0-9a-f]{64}$/);
        expect(h.transactionExists(done.walletAddress!, done.transactionHash!)).toBe(true);
        expect(done.fragmentRef).toMatch(/^[A-Za-z0-9]{9}$/);
        expect(h.deliveredCount(done.fragmentRef)).toBe(1);
        const payments = h.paymentsByRef(done.walletAddress!);
        expect(payments.get(done.fragmentRef!)).toBe(1);

        const events = await h.purchases.events(done.id);
        const path = events.map((e) => e.toStatus).filter((status, i, all) => i === 0 || status !== all[i - 1]);
        expect(path).toEqual(['queued', 'preparing', 'sending', 'submitted', 'confirming', 'completed']);
        const secret = await h.database.pool.query(
          'SELECT ciphertext, wrapped_key, destroyed_at FROM wallet_secrets WHERE purchase_id = $1',
          [done.id],
        );
        expect(secret.rows[0]).toMatchObject({ ciphertext: null, wrapped_key: null });
        expect(secret.rows[0].destroyed_at).toBeInstanceOf(Date);
        expect(Address.parse(done.walletAddress!).toRawString()).toBe(done.walletAddress);
      },
    );
  });
});

test('the 24-word demo wallet resolves to its deployed V4R2 contract', async () => {
  const created = await h.createPurchase({
    product: 'stars',
    amount: 50,
    payment_method: 'gram',
    username: '@bob',
    seed: h.wallet('ton24-v4r2').seed,
  });
  const done = await h.waitFor(created.id);
  expect(done.status).toBe('completed');
  expect(done.walletVersion).toBe('V4R2');
});

test('the wallet linked to the demo Fragment account: served at /demo, deployed and funded, none of the demo wallets', async () => {
  const demo = (await (await fetch(`${h.sandbox.url}/demo`)).json()) as {
    wallets: Array<{ rawAddress: string }>;
    fragment_linked_wallet: { address: string; rawAddress: string; mode: string };
  };
  const linked = h.sandbox.fragment!.linkedWallet.address;
  expect(demo.fragment_linked_wallet).toMatchObject({ rawAddress: linked.toRawString(), mode: 'linked' });
  expect(Address.parse(demo.fragment_linked_wallet.address).equals(linked)).toBe(true);
  expect(demo.wallets.map((w) => w.rawAddress)).not.toContain(linked.toRawString());
  const state = await h.chain.getAccountState(linked);
  expect(state.status).toBe('active');
  expect(state.balance).toBeGreaterThan(0n);
  expect(
    await h.chain.getJettonBalance(await h.chain.getJettonWalletAddress(h.config.usdtMaster, linked)),
  ).toBeGreaterThan(0n);
});
