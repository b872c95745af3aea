import { external, SendMode, type MessageRelaxed, type Transaction } from '@ton/core';
import { EmulationError } from '@ton/sandbox';
import type { ChainCore } from './chain-core';
import { TREASURY_FLOOR } from './faucet';
import { ChainClosedError } from './local-chain-types';
import type { ParsedExternal } from './message-hash';

type Deferred = { resolve: () => void; reject: (err: unknown) => void };
type Job =
  | { kind: 'external'; parsed: ParsedExternal; dueAt: number }
  | { kind: 'treasury'; messages: MessageRelaxed[]; dueAt: number; done: Deferred };

/**
 * Blocks: the queue of accepted externals and faucet transfers, and the emulation of one block
 * that runs every due job with its whole internal-message trace, indexes the transactions and
 * tells `onBlock` listeners. Only then are the transactions visible. A queued message can still
 * be dropped at inclusion (e.g. a second message with the same seqno in the same block).
 */
export class BlockBuilder {
  private pending: Job[] = [];
  private readonly pendingHashes = new Set<string>();
  private readonly listeners = new Set<(txs: Transaction[]) => void>();
  /** Externals rejected at inclusion time (bounded), for diagnostics. */
  readonly rejectedAtInclusion: { hash: string; reason: string }[] = [];

  constructor(private readonly core: ChainCore) {}

  get pendingCount(): number {
    return this.pending.length;
  }

  onBlock(listener: (transactions: Transaction[]) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Whether an external with this raw hash (hex) waits for the next block. */
  isQueued(hashHex: string): boolean {
    return this.pendingHashes.has(hashHex);
  }

  enqueueExternal(parsed: ParsedExternal, dueAt: number): void {
    this.pending.push({ kind: 'external', parsed, dueAt });
    this.pendingHashes.add(parsed.hash.toString('hex'));
  }

  /** Queues a faucet transfer for the next block; resolves once listeners saw that block. */
  enqueueTreasury(messages: MessageRelaxed[]): Promise<void> {
    if (this.core.closed) return Promise.reject(new ChainClosedError());
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ kind: 'treasury', messages, dueAt: 0, done: { resolve, reject } });
    });
  }

  /**
   * Emulates one block now: runs every due queued job, indexes the transactions, notifies
   * `onBlock` listeners. Called by the block clock; tests may call it to skip waiting.
   */
  async produceBlock(): Promise<Transaction[]> {
    this.core.assertOpen();
    const started = performance.now();
    const settle: (() => void)[] = [];
    const { included, seqno } = await this.core.lock.run(async () => {
      const nowMs = Date.now();
      const now = Math.max(this.core.lastBlockNow, Math.floor(nowMs / 1000));
      this.core.blockchain.now = now;
      const due: Job[] = [];
      const rest: Job[] = [];
      for (const job of this.pending) (job.dueAt <= nowMs ? due : rest).push(job);
      this.pending = rest;
      const seqno = ++this.core.blockSeqno;
      const included: Transaction[] = [];
      for (const job of due) {
        if (job.kind === 'external') this.pendingHashes.delete(job.parsed.hash.toString('hex'));
        try {
          const txs =
            job.kind === 'external' ? await this.runExternal(job.parsed) : await this.runTreasury(job.messages);
          this.indexTrace(txs, seqno, job.kind === 'external' ? job.parsed.hashNorm : null);
          included.push(...txs);
          if (job.kind === 'external') this.core.stats.includedExternals++;
          else settle.push(job.done.resolve);
        } catch (err) {
          if (job.kind === 'treasury') settle.push(() => job.done.reject(err));
          else this.noteRejected(job.parsed, err);
        } finally {
          this.core.clearSandboxLog();
        }
      }
      this.core.lastBlockNow = now;
      if (included.length > 0) this.core.dirty = true;
      return { included, seqno };
    });
    this.core.stats.blocks = seqno;
    this.core.stats.lastBlockMs = performance.now() - started;
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
    const res = await this.core.blockchain.sendMessage(parsed.message);
    return res.transactions;
  }

  private async runTreasury(messages: MessageRelaxed[]): Promise<Transaction[]> {
    const needed = messages.reduce((sum, m) => sum + (m.info.type === 'internal' ? m.info.value.coins : 0n), 0n);
    const contract = await this.core.blockchain.getContract(this.core.treasury.address);
    if (contract.balance < needed + TREASURY_FLOOR) contract.balance = needed + TREASURY_FLOOR * 2n;
    const body = this.core.treasury.createTransfer({ messages, sendMode: SendMode.PAY_GAS_SEPARATELY });
    const res = await this.core.blockchain.sendMessage(external({ to: this.core.treasury.address, body }));
    // A skipped compute phase (funding an uninit account) is normal; a failed VM run or action phase is not.
    const aborted = res.transactions.find(
      (tx) =>
        tx.description.type === 'generic' &&
        ((tx.description.computePhase.type === 'vm' && !tx.description.computePhase.success) ||
          (tx.description.actionPhase != null && !tx.description.actionPhase.success)),
    );
    if (aborted) {
      this.indexTrace(res.transactions, this.core.blockSeqno, null);
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
      this.core.index.add({ raw: tx.raw, block, traceId, inMsgHashNorm: tx === root ? rootNormHash : null });
    }
  }

  private noteRejected(parsed: ParsedExternal, err: unknown): void {
    const reason = err instanceof EmulationError ? `exit ${String(err.exitCode)}: ${err.error}` : String(err);
    this.rejectedAtInclusion.push({ hash: parsed.hash.toString('base64'), reason });
    if (this.rejectedAtInclusion.length > 200) this.rejectedAtInclusion.shift();
  }

  /** Rejects queued faucet jobs and forgets every queued message and listener. */
  close(): void {
    for (const job of this.pending) if (job.kind === 'treasury') job.done.reject(new ChainClosedError());
    this.pending = [];
    this.pendingHashes.clear();
    this.listeners.clear();
  }
}
