import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Address, toNano } from '@ton/core';
import { LocalChain } from '../src';
import { STATE_FILE } from '../src/chain/state-store';

const addr = (n: number) => Address.parse(`0:${n.toString(16).padStart(64, '0')}`);

describe('LocalChain persistence and pruning', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sandbox-state-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('overlapping saves (a periodic one while close saves) each land, leaving one whole state file', async () => {
    const chain = await LocalChain.create({ dataDir: dir, blockMs: 100 });
    try {
      await Promise.all([chain.save(), chain.save(), chain.save()]);
    } finally {
      await chain.close();
    }
    expect(await readdir(dir)).toEqual([STATE_FILE]);
    expect(JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8'))).toEqual(expect.objectContaining({ version: 1 }));
  });

  test('restart from the same data dir keeps balances, USDT master, history and block height', async () => {
    const a = addr(0xa11ce);
    const first = await LocalChain.create({ dataDir: dir, blockMs: 100 });
    const seen: number[] = [];
    first.onBlock((txs) => seen.push(txs.length));
    await first.fund(a, { gram: toNano('7.5'), usdt: 4_200_000n });
    expect(seen.some((n) => n > 0)).toBe(true);
    const master = first.usdtMaster;
    const history = first.listTransactions(a, { limit: 10 }).map((e) => e.hash.toString('hex'));
    const height = first.lastBlockSeqno;
    await first.close();
    expect((await stat(join(dir, STATE_FILE))).size).toBeGreaterThan(0);

    const second = await LocalChain.create({ dataDir: dir, blockMs: 100 });
    try {
      expect(second.usdtMaster.equals(master)).toBe(true);
      expect(await second.getBalance(a)).toBe(toNano('7.5'));
      expect(await second.getJettonBalance(a)).toBe(4_200_000n);
      expect(second.listTransactions(a, { limit: 10 }).map((e) => e.hash.toString('hex'))).toEqual(history);
      expect(second.lastBlockSeqno).toBeGreaterThanOrEqual(height);
      // Still a working chain after restore.
      await second.fund(a, { gram: toNano('0.5') });
      // Uninit accounts pay a few nanotons of storage fee per transaction.
      const b = await second.getBalance(a);
      expect(b).toBeLessThanOrEqual(toNano('8'));
      expect(b).toBeGreaterThan(toNano('8') - 1000n);
    } finally {
      await second.close();
    }
  });

  test('the transaction index is bounded per account and in total; sandbox keeps no log', async () => {
    const chain = await LocalChain.create({ dataDir: null, blockMs: 50, indexLimits: { perAccount: 3, total: 8 } });
    try {
      const a = addr(1);
      for (let i = 0; i < 5; i++) await chain.fund(a, { gram: toNano('1') });
      const kept = chain.listTransactions(a, { limit: 100 });
      expect(kept).toHaveLength(3);
      expect(kept[0]!.lt > kept[2]!.lt).toBe(true);
      for (let i = 2; i < 8; i++) await chain.fund(addr(i), { gram: toNano('1') });
      expect(chain.transactionIndex.size).toBeLessThanOrEqual(8);
      expect(chain.listTransactions(a, { limit: 100 }).length).toBeLessThan(3);
      expect(await chain.getBalance(a)).toBeGreaterThan(toNano('5') - 1000n);
      const log = (chain as unknown as { core: { blockchain: { transactions: unknown[] } } }).core.blockchain
        .transactions;
      expect(log).toHaveLength(0);
    } finally {
      await chain.close();
    }
  });
});
