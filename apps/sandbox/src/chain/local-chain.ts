import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadTransaction,
  SendMode,
  storeMessage,
  storeShardAccount,
  toNano,
  type Message,
  type MessageRelaxed,
  type StateInit,
  type Transaction,
  type TupleItem,
} from '@ton/core';
import {
  Blockchain,
  EmulationError,
  GetMethodError,
  snapshotFromSerializable,
  snapshotToSerializable,
  type SandboxContract,
  type TreasuryContract,
} from '@ton/sandbox';
import { BlockProducer } from './block-producer';
import { ChainFaults, type ChainFaultConfig } from './chain-faults';
import { apply2026FeeParams, readBasechainPrices } from './fee-config';
import { parseExternalBoc, type ParsedExternal } from './message-hash';
import { SerialLock } from './serial-lock';
import { loadChainState, saveChainState, type PersistedChainState } from './state-store';
import {
  DEFAULT_INDEX_LIMITS,
  TransactionIndex,
  type IndexedTransaction,
  type TransactionIndexLimits,
} from './transaction-index';
import { mintBody, usdtMinterInit } from './usdt-jetton';

export interface LocalChainEvents {
  /** Called after every emulated block with the @ton/core Transaction objects it included (all accounts, in lt order). Returns an unsubscribe function. */
  onBlock(listener: (transactions: Transaction[]) => void): () => void;
}

export interface LocalChainOptions {
  /** Emulated block interval (ms). Default 400 (mainnet since Catchain 2.0). */
  blockMs?: number;
  /** Folder for the persisted state; `null` keeps everything in memory. Default `.data/sandbox`. */
  dataDir?: string | null;
  /** How often dirty state is written to `dataDir` (ms). Default 5000. */
  saveIntervalMs?: number;
  faults?: ChainFaultConfig;
  indexLimits?: TransactionIndexLimits;
  /** Start the block clock right away (default true). */
  autoStart?: boolean;
}

export type AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

export interface AccountSnapshot {
  address: Address;
  status: AccountStatus;
  balance: bigint;
  code: Cell | null;
  data: Cell | null;
  frozenHash: Buffer | null;
  lastTransaction: { lt: bigint; hash: Buffer } | null;
}

export interface GetMethodOutcome {
  exitCode: number;
  gasUsed: bigint;
  stack: TupleItem[];
}

export interface FeeEstimate {
  inFwdFee: bigint;
  storageFee: bigint;
  gasFee: bigint;
  fwdFee: bigint;
}

/** An external message the chain would not accept (signature, seqno, expiry, bad init...). */
export class ExternalRejectedError extends Error {
  constructor(
    readonly address: Address,
    readonly exitCode: number | undefined,
    readonly reason: string,
  ) {
    super(
      `cannot apply external message to current state : External message was not accepted\n` +
        `Cannot run message on account: inbound external message rejected by transaction ${address.toRawString().toUpperCase()}:\n` +
        `exitcode=${exitCode ?? 'none'}, ${reason}`,
    );
  }
}

export class ChainClosedError extends Error {
  constructor() {
    super('local chain is closed');
  }
}

type Deferred = { resolve: () => void; reject: (err: unknown) => void };
type Job =
  | { kind: 'external'; parsed: ParsedExternal; dueAt: number }
  | { kind: 'treasury'; messages: MessageRelaxed[]; dueAt: number; done: Deferred };

const TREASURY_SEED = 'starsgate-sandbox-faucet';
const TREASURY_FLOOR = toNano('1000000');
const USDT_MINT_ATTACH = toNano('0.1');
const USDT_MINT_WALLET_TON = toNano('0.05');
const QUIET = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false } as const;

const decodeHash = (text: string): Buffer =>
  /^[0-9a-fA-F]{64}$/.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
const hashToBuffer = (h: bigint): Buffer => Buffer.from(h.toString(16).padStart(64, '0'), 'hex');

/**
 * The offline upstream's chain: an @ton/sandbox Blockchain with emulated blocks.
 *
 * - Externals are checked at submit (dry-run emulation against the last block's state, as
 *   toncenter's sendBoc does) and then wait in a queue; the next block (every `blockMs`) executes
 *   them and their whole internal-message trace. Only then are the transactions indexed and
 *   visible. A message that passed the check can still be dropped at inclusion (e.g. a second
 *   message with the same seqno in the same block) — exactly like mainnet.
 * - The faucet is a sandbox treasury contract; funding is real internal messages (GRAM) and real
 *   `mint` calls on the USDT stand-in minter, included in the next block.
 * - All access to the sandbox goes through one serial lock, so reads never see half a block.
 */
export class LocalChain implements LocalChainEvents {
  readonly faults: ChainFaults;
  private readonly lock = new SerialLock();
  private readonly listeners = new Set<(txs: Transaction[]) => void>();
  private pending: Job[] = [];
  private readonly pendingHashes = new Set<string>();
  private readonly jettonWalletCache = new Map<string, Address>();
  private producer: BlockProducer | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  private dirty = false;
  private closed = false;
  /** Externals rejected at inclusion time (bounded), for diagnostics. */
  readonly rejectedAtInclusion: { hash: string; reason: string }[] = [];
  readonly stats = { blocks: 0, includedExternals: 0, droppedExternals: 0, rejectedAtSubmit: 0, lastBlockMs: 0 };

  private constructor(
    private readonly blockchain: Blockchain,
    private readonly treasury: SandboxContract<TreasuryContract>,
    readonly usdtMaster: Address,
    private index: TransactionIndex,
    private blockSeqno: number,
    private lastBlockNow: number,
    private readonly options: Required<Omit<LocalChainOptions, 'faults' | 'indexLimits'>>,
    faults: ChainFaultConfig,
  ) {
    this.faults = new ChainFaults(faults);
  }

  /** Creates a fresh chain, or restores the one saved in `dataDir`. */
  static async create(options: LocalChainOptions = {}): Promise<LocalChain> {
    const opts = {
      blockMs: options.blockMs ?? 400,
      dataDir: options.dataDir === undefined ? '.data/sandbox' : options.dataDir,
      saveIntervalMs: options.saveIntervalMs ?? 5000,
      autoStart: options.autoStart ?? true,
    };
    const limits = options.indexLimits ?? DEFAULT_INDEX_LIMITS;
    const saved = opts.dataDir ? await loadChainState(opts.dataDir) : null;
    const blockchain = await Blockchain.create();
    blockchain.verbosity = { ...QUIET };
    let chain: LocalChain;
    if (saved) {
      // The saved config already carries the 2026 fee params.
      await blockchain.loadFrom(snapshotFromSerializable({ ...saved.snapshot, transactions: [] }));
      blockchain.verbosity = { ...QUIET };
      const treasury = await blockchain.treasury(TREASURY_SEED);
      const index = TransactionIndex.restore(saved.transactions, limits);
      chain = new LocalChain(
        blockchain,
        treasury,
        Address.parse(saved.usdtMaster),
        index,
        saved.blockSeqno,
        saved.lastBlockNow,
        opts,
        options.faults ?? {},
      );
      chain.clearSandboxLog();
    } else {
      blockchain.setConfig(apply2026FeeParams(blockchain.config));
      const now = Math.floor(Date.now() / 1000);
      blockchain.now = now;
      const treasury = await blockchain.treasury(TREASURY_SEED, { balance: TREASURY_FLOOR });
      const usdt = usdtMinterInit(treasury.address);
      chain = new LocalChain(
        blockchain,
        treasury,
        usdt.address,
        new TransactionIndex(limits),
        0,
        now,
        opts,
        options.faults ?? {},
      );
      chain.clearSandboxLog();
      const deployed = chain.enqueueTreasury([
        internal({ to: usdt.address, value: toNano('1'), bounce: false, init: usdt.init }),
      ]);
      await chain.produceBlock();
      await deployed;
      chain.dirty = true;
    }
    if (opts.dataDir) {
      chain.saveTimer = setInterval(() => {
        if (chain.dirty) chain.save().catch((err) => console.error('[sandbox] state save failed', err));
      }, opts.saveIntervalMs);
      chain.saveTimer.unref();
    }
    if (opts.autoStart) chain.start();
    return chain;
  }

  /** Starts the block clock (no-op if running). */
  start(): void {
    if (this.closed) throw new ChainClosedError();
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

  /** Seqno of the last emulated block. */
  get lastBlockSeqno(): number {
    return this.blockSeqno;
  }

  get pendingCount(): number {
    return this.pending.length;
  }

  get transactionIndex(): TransactionIndex {
    return this.index;
  }

  onBlock(listener: (transactions: Transaction[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Unix seconds of the chain (time of the last emulated block). */
  now(): number {
    return this.lastBlockNow;
  }

  // ---------------------------------------------------------------- blocks

  /**
   * Emulates one block now: runs every due queued job, indexes the transactions, notifies
   * `onBlock` listeners. Called by the block clock; tests may call it to skip waiting.
   */
  async produceBlock(): Promise<Transaction[]> {
    if (this.closed) throw new ChainClosedError();
    const started = performance.now();
    const settle: (() => void)[] = [];
    const { included, seqno } = await this.lock.run(async () => {
      const nowMs = Date.now();
      const now = Math.max(this.lastBlockNow, Math.floor(nowMs / 1000));
      this.blockchain.now = now;
      const due: Job[] = [];
      const rest: Job[] = [];
      for (const job of this.pending) (job.dueAt <= nowMs ? due : rest).push(job);
      this.pending = rest;
      const seqno = ++this.blockSeqno;
      const included: Transaction[] = [];
      for (const job of due) {
        if (job.kind === 'external') this.pendingHashes.delete(job.parsed.hash.toString('hex'));
        try {
          const txs =
            job.kind === 'external' ? await this.runExternal(job.parsed) : await this.runTreasury(job.messages);
          this.indexTrace(txs, seqno, job.kind === 'external' ? job.parsed.hashNorm : null);
          included.push(...txs);
          if (job.kind === 'external') this.stats.includedExternals++;
          else settle.push(job.done.resolve);
        } catch (err) {
          if (job.kind === 'treasury') settle.push(() => job.done.reject(err));
          else this.noteRejected(job.parsed, err);
        } finally {
          this.clearSandboxLog();
        }
      }
      this.lastBlockNow = now;
      if (included.length > 0) this.dirty = true;
      return { included, seqno };
    });
    this.stats.blocks = seqno;
    this.stats.lastBlockMs = performance.now() - started;
    for (const listener of this.listeners) {
      try {
        listener(included);
      } catch (err) {
        console.error('[sandbox] onBlock listener failed', err);
      }
    }
    // Faucet callers resume only after listeners saw the block.
    for (const fn of settle) fn();
    return included;
  }

  private async runExternal(parsed: ParsedExternal): Promise<Transaction[]> {
    const res = await this.blockchain.sendMessage(parsed.message);
    return res.transactions;
  }

  private async runTreasury(messages: MessageRelaxed[]): Promise<Transaction[]> {
    const needed = messages.reduce((sum, m) => sum + (m.info.type === 'internal' ? m.info.value.coins : 0n), 0n);
    const contract = await this.blockchain.getContract(this.treasury.address);
    if (contract.balance < needed + TREASURY_FLOOR) contract.balance = needed + TREASURY_FLOOR * 2n;
    const body = this.treasury.createTransfer({ messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
    const res = await this.blockchain.sendMessage(external({ to: this.treasury.address, body }));
    // A skipped compute phase (funding an uninit account) is normal; a failed VM run or action phase is not.
    const aborted = res.transactions.find(
      (tx) =>
        tx.description.type === 'generic' &&
        ((tx.description.computePhase.type === 'vm' && !tx.description.computePhase.success) ||
          (tx.description.actionPhase != null && !tx.description.actionPhase.success)),
    );
    if (aborted) {
      this.indexTrace(res.transactions, this.blockSeqno, null);
      const d = aborted.description;
      const exit = d.type === 'generic' && d.computePhase.type === 'vm' ? d.computePhase.exitCode : undefined;
      throw new Error(`faucet transaction aborted on ${aborted.address.toString(16)} (exit ${String(exit)})`);
    }
    return res.transactions;
  }

  private indexTrace(txs: Transaction[], block: number, rootNormHash: Buffer | null): void {
    const root = txs[0];
    if (!root) return;
    const traceId = root.hash();
    for (const tx of txs) {
      this.index.add({ raw: tx.raw, block, traceId, inMsgHashNorm: tx === root ? rootNormHash : null });
    }
  }

  private noteRejected(parsed: ParsedExternal, err: unknown): void {
    const reason = err instanceof EmulationError ? `exit ${String(err.exitCode)}: ${err.error}` : String(err);
    this.rejectedAtInclusion.push({ hash: parsed.hash.toString('base64'), reason });
    if (this.rejectedAtInclusion.length > 200) this.rejectedAtInclusion.shift();
  }

  /** Sandbox keeps every transaction in memory for its own getTransactions; we never use it. */
  private clearSandboxLog(): void {
    const log = (this.blockchain as unknown as { transactions?: unknown[] }).transactions;
    if (Array.isArray(log)) log.length = 0;
  }

  // ---------------------------------------------------------------- sending

  /**
   * Accepts a signed external-in message BOC (base64 string or bytes). Throws `BocError` for
   * malformed input and `ExternalRejectedError` when a dry run against the current state fails
   * (bad signature, wrong seqno, expired, wrong wallet id...). Otherwise queues it for the next
   * block and returns its raw and TEP-467 normalized hashes (base64). Re-submitting identical
   * bytes while queued is idempotent.
   */
  async submitExternal(boc: Buffer | string): Promise<{ hash: string; hashNorm: string }> {
    if (this.closed) throw new ChainClosedError();
    const parsed = parseExternalBoc(boc);
    const result = { hash: parsed.hash.toString('base64'), hashNorm: parsed.hashNorm.toString('base64') };
    const key = parsed.hash.toString('hex');
    if (this.pendingHashes.has(key)) return result;
    const outcome = await this.lock.run(() => this.dryRun(parsed.message, false));
    if (!outcome.ok) {
      this.stats.rejectedAtSubmit++;
      throw new ExternalRejectedError(parsed.message.info.dest, outcome.exitCode, outcome.reason);
    }
    // Another submit of the same bytes may have been queued while we were dry-running.
    if (this.pendingHashes.has(key)) return result;
    if (this.faults.takeDropExternal()) {
      this.stats.droppedExternals++;
      return result;
    }
    this.pending.push({ kind: 'external', parsed, dueAt: Date.now() + this.faults.inclusionDelayMs() });
    this.pendingHashes.add(key);
    return result;
  }

  /** Emulates `message` against the current state without committing anything. Lock held by caller. */
  private async dryRun(
    message: Message,
    ignoreChksig: boolean,
  ): Promise<{ ok: true; tx: Transaction } | { ok: false; exitCode: number | undefined; reason: string }> {
    const dest = message.info.dest;
    if (!(dest instanceof Address)) return { ok: false, exitCode: undefined, reason: 'no destination' };
    const contract = await this.blockchain.getContract(dest);
    const res = await this.blockchain.executor.runTransaction({
      config: this.blockchain.configBase64,
      libs: this.blockchain.libs ?? null,
      verbosity: 'short',
      shardAccount: beginCell().store(storeShardAccount(contract.account)).endCell().toBoc().toString('base64'),
      now: Math.max(this.lastBlockNow, Math.floor(Date.now() / 1000)),
      lt: this.blockchain.lt,
      randomSeed: Buffer.alloc(32),
      ignoreChksig,
      debugEnabled: false,
      prevBlocksInfo: this.blockchain.prevBlocks,
      message: beginCell().store(storeMessage(message)).endCell(),
    });
    if (!res.result.success) {
      return {
        ok: false,
        exitCode: res.result.vmResults?.vmExitCode,
        reason: res.result.error.split('\n')[0] ?? 'rejected',
      };
    }
    return { ok: true, tx: loadTransaction(Cell.fromBase64(res.result.transaction).beginParse()) };
  }

  /** toncenter `estimateFee`: emulates an external with `body` (and optional init) to `address`. */
  async estimateFee(
    address: Address,
    args: { body: Cell; init?: StateInit | null; ignoreChksig?: boolean },
  ): Promise<FeeEstimate> {
    const message: Message = {
      info: { type: 'external-in', dest: address, importFee: 0n },
      ...(args.init ? { init: args.init } : {}),
      body: args.body,
    };
    const outcome = await this.lock.run(() => this.dryRun(message, args.ignoreChksig ?? true));
    if (!outcome.ok) throw new ExternalRejectedError(address, outcome.exitCode, outcome.reason);
    const d = outcome.tx.description;
    const prices = readBasechainPrices(this.blockchain.config);
    const msgCell = beginCell().store(storeMessage(message)).endCell();
    const { bits, cells } = countCellsBelowRoot(msgCell);
    const inFwdFee = prices.lumpPrice + (prices.bitPrice * bits + prices.cellPrice * cells + 65535n) / 65536n;
    if (d.type !== 'generic') return { inFwdFee, storageFee: 0n, gasFee: 0n, fwdFee: 0n };
    return {
      inFwdFee,
      storageFee: d.storagePhase?.storageFeesCollected ?? 0n,
      gasFee: d.computePhase.type === 'vm' ? d.computePhase.gasFees : 0n,
      fwdFee: d.actionPhase?.totalFwdFees ?? 0n,
    };
  }

  // ---------------------------------------------------------------- faucet

  /** Funds `address` from the faucet (GRAM nanotons, USDT micro-units); resolves once included in a block. */
  async fund(address: Address, amounts: { gram?: bigint; usdt?: bigint }): Promise<void> {
    const messages: MessageRelaxed[] = [];
    const gram = amounts.gram ?? 0n;
    const usdt = amounts.usdt ?? 0n;
    if (gram < 0n || usdt < 0n) throw new RangeError('faucet amounts must be >= 0');
    if (gram > 0n) messages.push(internal({ to: address, value: gram, bounce: false }));
    if (usdt > 0n) {
      messages.push(
        internal({
          to: this.usdtMaster,
          value: USDT_MINT_ATTACH,
          bounce: true,
          body: mintBody({
            minter: this.usdtMaster,
            to: address,
            amount: usdt,
            response: this.treasury.address,
            walletTon: USDT_MINT_WALLET_TON,
          }),
        }),
      );
    }
    if (messages.length === 0) return;
    await this.enqueueTreasury(messages);
  }

  private enqueueTreasury(messages: MessageRelaxed[]): Promise<void> {
    if (this.closed) return Promise.reject(new ChainClosedError());
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ kind: 'treasury', messages, dueAt: 0, done: { resolve, reject } });
    });
  }

  /** Address of the faucet (a sandbox treasury contract that also administers the USDT minter). */
  get faucetAddress(): Address {
    return this.treasury.address;
  }

  // ---------------------------------------------------------------- reads

  async getAccount(address: Address): Promise<AccountSnapshot> {
    return this.lock.run(async () => {
      const { account, lastTransactionLt, lastTransactionHash } = (await this.blockchain.getContract(address)).account;
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
    return this.lock.run(async () => {
      const contract = await this.blockchain.getContract(address);
      if (contract.accountState?.type !== 'active') return { exitCode: -13, gasUsed: 0n, stack: [] };
      try {
        const res = await contract.get(method, stack, { now: this.lastBlockNow });
        return { exitCode: res.exitCode, gasUsed: res.gasUsed, stack: res.stack };
      } catch (err) {
        if (err instanceof GetMethodError) return { exitCode: err.exitCode, gasUsed: err.gasUsed, stack: [] };
        throw err;
      }
    });
  }

  /** The owner's jetton wallet address from the USDT stand-in master's `get_wallet_address`. */
  async getJettonWalletAddress(owner: Address, master: Address = this.usdtMaster): Promise<Address> {
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
    const found = this.index.byInboundMessage(hash);
    if (found) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        unsubscribe();
        reject(new Error(`message ${hash.toString('base64')} not included within ${timeoutMs} ms`));
      }, timeoutMs);
      const unsubscribe = this.onBlock(() => {
        const tx = this.index.byInboundMessage(hash);
        if (!tx) return;
        clearTimeout(timer);
        unsubscribe();
        resolve(tx);
      });
    });
  }

  /** Indexed transactions of an account, newest first (see TransactionIndex.list). */
  listTransactions(address: Address, opts: Parameters<TransactionIndex['list']>[1]): IndexedTransaction[] {
    return this.index.list(address.toRawString(), opts);
  }

  /** The blockchain's configuration (dictionary of config params), as toncenter's getConfigParam reads it. */
  get configCell(): Cell {
    return this.blockchain.config;
  }

  feePrices(): ReturnType<typeof readBasechainPrices> {
    return readBasechainPrices(this.blockchain.config);
  }

  // ---------------------------------------------------------------- persistence

  /** Writes the chain state to `dataDir` now (no-op without a data dir). */
  async save(): Promise<void> {
    const dir = this.options.dataDir;
    if (!dir) return;
    const state = await this.lock.run(async (): Promise<PersistedChainState> => {
      const snapshot = this.blockchain.snapshot();
      const serial = snapshotToSerializable({
        ...snapshot,
        contracts: snapshot.contracts.filter((c) => c.account.account !== undefined && c.account.account !== null),
        transactions: [],
      });
      this.dirty = false;
      return {
        version: 1,
        savedAt: new Date().toISOString(),
        blockSeqno: this.blockSeqno,
        lastBlockNow: this.lastBlockNow,
        usdtMaster: this.usdtMaster.toRawString(),
        snapshot: serial,
        transactions: this.index.serialize(),
      };
    });
    await saveChainState(dir, state);
  }

  /** Stops the block clock, saves the state (if persistent) and rejects queued faucet jobs. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.producer?.stop();
    if (this.saveTimer) clearInterval(this.saveTimer);
    await this.save();
    this.closed = true;
    for (const job of this.pending) if (job.kind === 'treasury') job.done.reject(new ChainClosedError());
    this.pending = [];
    this.pendingHashes.clear();
    this.listeners.clear();
  }
}

function countCellsBelowRoot(root: Cell): { bits: bigint; cells: bigint } {
  const seen = new Set<string>();
  let bits = 0n;
  let cells = 0n;
  const walk = (c: Cell) => {
    for (const r of c.refs) {
      const h = r.hash().toString('hex');
      if (seen.has(h)) continue;
      seen.add(h);
      bits += BigInt(r.bits.length);
      cells += 1n;
      walk(r);
    }
  };
  walk(root);
  return { bits, cells };
}
