import { Address, beginCell, type TupleItem } from '@ton/core';
import { GetMethodError } from '@ton/sandbox';
import type { BlockBuilder } from './block-builder';
import type { ChainCore } from './chain-core';
import type { BasechainPrices } from './fee-config';
import type { AccountSnapshot, GetMethodOutcome } from './local-chain-types';
import type { IndexedTransaction, TransactionIndex } from './transaction-index';

const decodeHash = (text: string): Buffer =>
  /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
const hashToBuffer = (h: bigint): Buffer => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

/** Reads at the last block's state: accounts, get-methods, the USDT stand-in, indexed transactions. */
export class ChainReads {
  private readonly jettonWalletCache = new Map<string, Address>();

  constructor(
    private readonly core: ChainCore,
    private readonly blocks: BlockBuilder,
  ) {}

  async getAccount(address: Address): Promise<AccountSnapshot> {
    return this.core.lock.run(async () => {
      const { account, lastTransactionLt, lastTransactionHash } = (await this.core.blockchain.getContract(address))
        .account;
      const lastTransaction =
        lastTransactionLt > 0n ? { lt: lastTransactionLt, hash: hashToBuffer(lastTransactionHash) } : null;
      if (!account)
        return { address, status: 'nonexist', balance: 0n, code: null, data: null, frozenHash: null, lastTransaction };
      const balance = account.storage.balance.coins;
      const state = account.storage.state;
      switch (state.type) {
        case 'active':
          return {
            address,
            status: 'active',
            balance,
            code: state.state.code ?? null,
            data: state.state.data ?? null,
            frozenHash: null,
            lastTransaction,
          };
        case 'frozen':
          return {
            address,
            status: 'frozen',
            balance,
            code: null,
            data: null,
            frozenHash: hashToBuffer(state.stateHash),
            lastTransaction,
          };
        case 'uninit':
          return { address, status: 'uninit', balance, code: null, data: null, frozenHash: null, lastTransaction };
      }
    });
  }

  async getBalance(address: Address): Promise<bigint> {
    return (await this.getAccount(address)).balance;
  }

  /** Runs a get-method at the last block's state. Non-zero exit codes are returned, not thrown (-13 = account not active). */
  async runGetMethod(address: Address, method: string | number, stack: TupleItem[] = []): Promise<GetMethodOutcome> {
    return this.core.lock.run(async () => {
      const contract = await this.core.blockchain.getContract(address);
      if (contract.accountState?.type !== 'active') return { exitCode: -13, gasUsed: 0n, stack: [] };
      try {
        const res = await contract.get(method, stack, { now: this.core.lastBlockNow });
        return { exitCode: res.exitCode, gasUsed: res.gasUsed, stack: res.stack };
      } catch (err) {
        if (err instanceof GetMethodError) return { exitCode: err.exitCode, gasUsed: err.gasUsed, stack: [] };
        throw err;
      }
    });
  }

  /** The owner's jetton wallet address from the USDT stand-in master's `get_wallet_address`. */
  async getJettonWalletAddress(owner: Address, master: Address = this.core.usdtMaster): Promise<Address> {
    const key = `${master.toRawString()}/${owner.toRawString()}`;
    const cached = this.jettonWalletCache.get(key);
    if (cached) return cached;
    const res = await this.runGetMethod(master, 'get_wallet_address', [
      { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
    ]);
    const item = res.stack[0];
    if (res.exitCode !== 0 || !item || item.type !== 'slice')
      throw new Error(`get_wallet_address failed (exit ${res.exitCode})`);
    const address = item.cell.beginParse().loadAddress();
    if (this.jettonWalletCache.size > 10_000) this.jettonWalletCache.clear();
    this.jettonWalletCache.set(key, address);
    return address;
  }

  /** `get_wallet_data` of a jetton wallet, or null if it is not deployed. */
  async getJettonWalletData(
    jettonWallet: Address,
  ): Promise<{ balance: bigint; owner: Address; master: Address } | null> {
    const res = await this.runGetMethod(jettonWallet, 'get_wallet_data');
    if (res.exitCode !== 0) return null;
    const [balance, owner, master] = res.stack;
    if (balance?.type !== 'int' || owner?.type !== 'slice' || master?.type !== 'slice') return null;
    return {
      balance: balance.value,
      owner: owner.cell.beginParse().loadAddress(),
      master: master.cell.beginParse().loadAddress(),
    };
  }

  /** USDT stand-in balance of `owner` (micro-units); 0 if its jetton wallet is not deployed. */
  async getJettonBalance(owner: Address): Promise<bigint> {
    const data = await this.getJettonWalletData(await this.getJettonWalletAddress(owner));
    return data?.balance ?? 0n;
  }

  /**
   * Resolves with the transaction whose inbound message has this raw or normalized hash (base64,
   * base64url or hex) once a block included it; rejects after `timeoutMs`.
   */
  waitForTransaction(messageHash: Buffer | string, timeoutMs = 10_000): Promise<IndexedTransaction> {
    const hash = typeof messageHash === 'string' ? decodeHash(messageHash) : messageHash;
    const found = this.core.index.byInboundMessage(hash);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`message ${hash.toString('base64')} not included within ${timeoutMs} ms`));
      }, timeoutMs);
      const unsubscribe = this.blocks.onBlock(() => {
        const tx = this.core.index.byInboundMessage(hash);
        if (!tx) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(tx);
      });
    });
  }

  /** Indexed transactions of an account, newest first (see TransactionIndex.list). */
  listTransactions(address: Address, opts: Parameters<TransactionIndex['list']>[1]): IndexedTransaction[] {
    return this.core.index.list(address.toRawString(), opts);
  }

  feePrices(): BasechainPrices {
    return this.core.config().prices;
  }
}
