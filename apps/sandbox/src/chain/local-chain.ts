import { internal, toNano, type Address, type Cell, type StateInit, type Transaction, type TupleItem } from '@ton/core';
import { BlockBuilder } from './block-builder';
import { BlockProducer } from './block-producer';
import type { ChainCore } from './chain-core';
import { captureChainState, openChainCore } from './chain-persistence';
import { ChainReads } from './chain-reads';
import { ChainFaults, type ChainFaultConfig } from './chain-faults';
import { ExternalSubmission } from './external-submission';
import { faucetMessages } from './faucet';
import type { BasechainPrices } from './fee-config';
import {
  type AccountSnapshot,
  type FeeEstimate,
  type GetMethodOutcome,
  type LocalChainEvents,
  type LocalChainOptions,
} from './local-chain-types';
import { saveChainState } from './state-store';
import { DEFAULT_INDEX_LIMITS, type IndexedTransaction, type TransactionIndex } from './transaction-index';

export * from './local-chain-types';

type ResolvedOptions = Required<Omit<LocalChainOptions, 'faults' | 'indexLimits'>>;

/**
 * The offline upstream's chain: an @ton/sandbox Blockchain with emulated blocks. One object for
 * the routers, made of its parts: blocks (block-builder.ts), submission (external-submission.ts),
 * the faucet (faucet.ts), reads (chain-reads.ts) and persistence (chain-persistence.ts,
 * state-store.ts), all sharing one ChainCore (chain-core.ts).
 *
 * - Externals are checked at submit and then wait in a queue; the next block (every `blockMs`)
 *   executes them and their whole internal-message trace. Only then are the transactions indexed
 *   and visible — exactly like mainnet, a checked message can still be dropped at inclusion.
 * - The faucet is a sandbox treasury contract; funding is real internal messages (GRAM) and real
 *   `mint` calls on the USDT stand-in minter, included in the next block.
 * - All access to the sandbox goes through one serial lock, so reads never see half a block.
 */
export class LocalChain implements LocalChainEvents {
  readonly faults: ChainFaults;
  private readonly blocks: BlockBuilder;
  private readonly submission: ExternalSubmission;
  private readonly reads: ChainReads;
  private producer: BlockProducer | undefined;
  private saveTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly core: ChainCore,
    private readonly options: ResolvedOptions,
    faults: ChainFaultConfig,
  ) {
    this.faults = new ChainFaults(faults);
    this.blocks = new BlockBuilder(core);
    this.submission = new ExternalSubmission(core, this.blocks, this.faults);
    this.reads = new ChainReads(core, this.blocks);
  }

  /** Creates a fresh chain, or restores the one saved in `dataDir`. */
  static async create(options: LocalChainOptions = {}): Promise<LocalChain> {
    const opts: ResolvedOptions = {
      blockMs: options.blockMs ?? 400,
      dataDir: options.dataDir === undefined ? '.data/sandbox' : options.dataDir,
      saveIntervalMs: options.saveIntervalMs ?? 5000,
      autoStart: options.autoStart ?? true,
    };
    const { core, usdtToDeploy } = await openChainCore(opts.dataDir, options.indexLimits ?? DEFAULT_INDEX_LIMITS);
    const chain = new LocalChain(core, opts, options.faults ?? {});
    if (usdtToDeploy) {
      const deployed = chain.blocks.enqueueTreasury([
        internal({ to: usdtToDeploy.address, value: toNano('1'), bounce: false, init: usdtToDeploy.init }),
      ]);
      await chain.produceBlock();
      await deployed;
      core.dirty = true;
    }
    if (opts.dataDir) {
      chain.saveTimer = setInterval(() => {
        if (core.dirty) chain.save().catch((err) => console.error('[sandbox] state save failed', err));
      }, opts.saveIntervalMs);
      chain.saveTimer.unref();
    }
    if (opts.autoStart) chain.start();
    return chain;
  }

  /** Starts the block clock (no-op if running). */
  start(): void {
    this.core.assertOpen();
    this.producer ??= new BlockProducer(this.options.blockMs, async () => {
      await this.produceBlock();
    });
    this.producer.start();
  }

  get blockMs(): number {
    return this.options.blockMs;
  }

  get dataDir(): string | null {
    return this.options.dataDir;
  }

  get usdtMaster(): Address {
    return this.core.usdtMaster;
  }

  get stats(): ChainCore['stats'] {
    return this.core.stats;
  }

  /** Externals rejected at inclusion time (bounded), for diagnostics. */
  get rejectedAtInclusion(): BlockBuilder['rejectedAtInclusion'] {
    return this.blocks.rejectedAtInclusion;
  }

  /** Seqno of the last emulated block. */
  get lastBlockSeqno(): number {
    return this.core.blockSeqno;
  }

  get pendingCount(): number {
    return this.blocks.pendingCount;
  }

  get transactionIndex(): TransactionIndex {
    return this.core.index;
  }

  /** Address of the faucet (a sandbox treasury contract that also administers the USDT minter). */
  get faucetAddress(): Address {
    return this.core.treasury.address;
  }

  onBlock(listener: (transactions: Transaction[]) => void): () => void {
    return this.blocks.onBlock(listener);
  }

  /** Unix seconds of the chain (time of the last emulated block). */
  now(): number {
    return this.core.lastBlockNow;
  }

  /**
   * Emulates one block now: runs every due queued job, indexes the transactions, notifies
   * `onBlock` listeners. Called by the block clock; tests may call it to skip waiting.
   */
  produceBlock(): Promise<Transaction[]> {
    return this.blocks.produceBlock();
  }

  /** See ExternalSubmission.submitExternal. */
  submitExternal(boc: Buffer | string): Promise<{ hash: string; hashNorm: string }> {
    return this.submission.submitExternal(boc);
  }

  /** toncenter `estimateFee`: emulates an external with `body` (and optional init) to `address`. */
  estimateFee(
    address: Address,
    args: { body: Cell; init?: StateInit | null; ignoreChksig?: boolean },
  ): Promise<FeeEstimate> {
    return this.submission.estimateFee(address, args);
  }

  /** Funds `address` from the faucet (GRAM nanotons, USDT micro-units); resolves once included in a block. */
  async fund(address: Address, amounts: { gram?: bigint; usdt?: bigint }): Promise<void> {
    const messages = faucetMessages(
      { treasury: this.core.treasury.address, usdtMaster: this.core.usdtMaster },
      address,
      amounts,
    );
    if (messages.length > 0) await this.blocks.enqueueTreasury(messages);
  }

  getAccount(address: Address): Promise<AccountSnapshot> {
    return this.reads.getAccount(address);
  }

  getBalance(address: Address): Promise<bigint> {
    return this.reads.getBalance(address);
  }

  /** Runs a get-method at the last block's state. Non-zero exit codes are returned, not thrown (-13 = account not active). */
  runGetMethod(address: Address, method: string | number, stack: TupleItem[] = []): Promise<GetMethodOutcome> {
    return this.reads.runGetMethod(address, method, stack);
  }

  /** The owner's jetton wallet address from the USDT stand-in master's `get_wallet_address`. */
  getJettonWalletAddress(owner: Address, master: Address = this.core.usdtMaster): Promise<Address> {
    return this.reads.getJettonWalletAddress(owner, master);
  }

  /** `get_wallet_data` of a jetton wallet, or null if it is not deployed. */
  getJettonWalletData(jettonWallet: Address): Promise<{ balance: bigint; owner: Address; master: Address } | null> {
    return this.reads.getJettonWalletData(jettonWallet);
  }

  /** USDT stand-in balance of `owner` (micro-units); 0 if its jetton wallet is not deployed. */
  getJettonBalance(owner: Address): Promise<bigint> {
    return this.reads.getJettonBalance(owner);
  }

  /** See ChainReads.waitForTransaction. */
  waitForTransaction(messageHash: Buffer | string, timeoutMs = 10_000): Promise<IndexedTransaction> {
    return this.reads.waitForTransaction(messageHash, timeoutMs);
  }

  /** Indexed transactions of an account, newest first (see TransactionIndex.list). */
  listTransactions(address: Address, opts: Parameters<TransactionIndex['list']>[1]): IndexedTransaction[] {
    return this.reads.listTransactions(address, opts);
  }

  /** The blockchain's configuration (dictionary of config params), as toncenter's getConfigParam reads it. */
  get configCell(): Cell {
    return this.core.config().cell;
  }

  feePrices(): BasechainPrices {
    return this.reads.feePrices();
  }

  /** Writes the chain state to `dataDir` now (no-op without a data dir). */
  async save(): Promise<void> {
    const dir = this.options.dataDir;
    if (!dir) return;
    await saveChainState(dir, await captureChainState(this.core));
  }

  /** Stops the block clock, saves the state (if persistent) and rejects queued faucet jobs. */
  async close(): Promise<void> {
    if (this.core.closed) return;
    await this.producer?.stop();
    if (this.saveTimer) clearInterval(this.saveTimer);
    await this.save();
    this.core.closed = true;
    this.blocks.close();
  }
}
