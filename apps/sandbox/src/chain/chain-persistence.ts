import { Address } from '@ton/core';
import { Blockchain, snapshotFromSerializable, snapshotToSerializable } from '@ton/sandbox';
import { ChainCore, QUIET } from './chain-core';
import { TREASURY_FLOOR, TREASURY_SEED } from './faucet';
import { apply2026FeeParams } from './fee-config';
import { loadChainState, type PersistedChainState } from './state-store';
import { TransactionIndex, type TransactionIndexLimits } from './transaction-index';
import { usdtMinterInit } from './usdt-jetton';

export interface OpenedChain {
  core: ChainCore;
  /** Set for a fresh chain: the USDT stand-in minter still has to be deployed. */
  usdtToDeploy?: ReturnType<typeof usdtMinterInit>;
}

/** Restores the chain saved in `dataDir`, or sets up a fresh emulator with the 2026 fee params. */
export async function openChainCore(dataDir: string | null, limits: TransactionIndexLimits): Promise<OpenedChain> {
  const saved = dataDir ? await loadChainState(dataDir) : null;
  const blockchain = await Blockchain.create();
  blockchain.verbosity = { ...QUIET };
  if (saved) {
    // The saved config already carries the 2026 fee params.
    await blockchain.loadFrom(snapshotFromSerializable({ ...saved.snapshot, transactions: [] }));
    blockchain.verbosity = { ...QUIET };
    const treasury = await blockchain.treasury(TREASURY_SEED);
    const index = TransactionIndex.restore(saved.transactions, limits);
    const usdtMaster = Address.parse(saved.usdtMaster);
    return { core: new ChainCore(blockchain, treasury, usdtMaster, index, saved.blockSeqno, saved.lastBlockNow) };
  }
  blockchain.setConfig(apply2026FeeParams(blockchain.config));
  const now = Math.floor(Date.now() / 1000);
  blockchain.now = now;
  const treasury = await blockchain.treasury(TREASURY_SEED, { balance: TREASURY_FLOOR });
  const usdt = usdtMinterInit(treasury.address);
  const core = new ChainCore(blockchain, treasury, usdt.address, new TransactionIndex(limits), 0, now);
  return { core, usdtToDeploy: usdt };
}

/** The state to write to disk: the emulator's snapshot without its transaction list, plus our index. */
export function captureChainState(core: ChainCore): Promise<PersistedChainState> {
  return core.lock.run(() => {
    const snapshot = core.blockchain.snapshot();
    const serial = snapshotToSerializable({
      ...snapshot,
      contracts: snapshot.contracts.filter((c) => c.account.account !== undefined && c.account.account !== null),
      transactions: [],
    });
    core.dirty = false;
    return Promise.resolve<PersistedChainState>({
      version: 1,
      savedAt: new Date().toISOString(),
      blockSeqno: core.blockSeqno,
      lastBlockNow: core.lastBlockNow,
      usdtMaster: core.usdtMaster.toRawString(),
      snapshot: serial,
      transactions: core.index.serialize(),
    });
  });
}
