import { Address, Cell, loadTransaction, type Transaction } from '@ton/core';
import { transactionMessageCells } from './message-hash';

/**
 * Our own per-account transaction index. @ton/sandbox keeps every transaction forever and its
 * getTransactions reverses its list in place and cannot page by hash (docs/ton.md §7.2), so the chain
 * clears sandbox's list after every block and serves history from here.
 *
 * Bounded twice: at most `perAccount` transactions per account (oldest dropped first) and at most
 * `total` overall (globally oldest dropped first), so memory stays flat on a long-running sandbox.
 * Entries keep only the raw transaction BOC plus a few keys; the parsed form is built on demand.
 */
export interface IndexedTransaction {
  /** Raw address `0:<hex>`. */
  account: string;
  lt: bigint;
  hash: Buffer;
  now: number;
  /** Emulated block seqno that included it. */
  block: number;
  /** Hash of the first transaction of the trace this one belongs to. */
  traceId: Buffer;
  boc: Buffer;
  inMsgHash: string | null;
  inMsgHashNorm: string | null;
  outMsgHashes: string[];
  evicted: boolean;
}

export interface TransactionIndexLimits {
  perAccount: number;
  total: number;
}

export const DEFAULT_INDEX_LIMITS: TransactionIndexLimits = { perAccount: 1000, total: 50_000 };

export interface SerializedIndexEntry {
  boc: string;
  block: number;
  traceId: string;
  inMsgHashNorm: string | null;
}

export class TransactionIndex {
  private readonly byAccount = new Map<string, IndexedTransaction[]>();
  private readonly byHash = new Map<string, IndexedTransaction>();
  private readonly byInMsg = new Map<string, IndexedTransaction>();
  private readonly byOutMsg = new Map<string, IndexedTransaction>();
  /** Insertion order for the global bound (may hold already-evicted entries). */
  private readonly fifo: IndexedTransaction[] = [];
  private fifoHead = 0;
  private live = 0;

  constructor(readonly limits: TransactionIndexLimits = DEFAULT_INDEX_LIMITS) {}

  get size(): number {
    return this.live;
  }

  add(args: { raw: Cell; block: number; traceId: Buffer; inMsgHashNorm?: Buffer | null }): IndexedTransaction {
    const tx = loadTransaction(args.raw.beginParse());
    const { inMsg, outMsgs } = transactionMessageCells(args.raw);
    const dest = tx.inMessage?.info.dest;
    const workchain = dest instanceof Address ? dest.workChain : 0;
    const entry: IndexedTransaction = {
      account: `${workchain}:${tx.address.toString(16).padStart(64, '0')}`,
      lt: tx.lt,
      hash: args.raw.hash(),
      now: tx.now,
      block: args.block,
      traceId: args.traceId,
      boc: args.raw.toBoc(),
      inMsgHash: inMsg ? inMsg.hash().toString('hex') : null,
      inMsgHashNorm: args.inMsgHashNorm ? args.inMsgHashNorm.toString('hex') : null,
      outMsgHashes: outMsgs.map((m) => m.hash().toString('hex')),
      evicted: false,
    };
    let list = this.byAccount.get(entry.account);
    if (!list) {
      list = [];
      this.byAccount.set(entry.account, list);
    }
    list.push(entry);
    this.byHash.set(entry.hash.toString('hex'), entry);
    if (entry.inMsgHash) this.byInMsg.set(entry.inMsgHash, entry);
    if (entry.inMsgHashNorm) this.byInMsg.set(entry.inMsgHashNorm, entry);
    for (const h of entry.outMsgHashes) this.byOutMsg.set(h, entry);
    this.fifo.push(entry);
    this.live++;

    while (list.length > this.limits.perAccount) {
      const old = list.shift();
      if (old) this.evict(old);
    }
    while (this.live > this.limits.total && this.fifoHead < this.fifo.length) {
      const old = this.fifo[this.fifoHead++];
      if (old && !old.evicted) {
        const l = this.byAccount.get(old.account);
        if (l && l[0] === old) l.shift();
        else if (l) l.splice(l.indexOf(old), 1);
        if (l && l.length === 0) this.byAccount.delete(old.account);
        this.evict(old);
      }
    }
    if (this.fifoHead > 4096 && this.fifoHead * 2 > this.fifo.length) {
      this.fifo.splice(0, this.fifoHead);
      this.fifoHead = 0;
    }
    return entry;
  }

  private evict(entry: IndexedTransaction): void {
    entry.evicted = true;
    this.live--;
    const del = (map: Map<string, IndexedTransaction>, key: string | null) => {
      if (key !== null && map.get(key) === entry) map.delete(key);
    };
    del(this.byHash, entry.hash.toString('hex'));
    del(this.byInMsg, entry.inMsgHash);
    del(this.byInMsg, entry.inMsgHashNorm);
    for (const h of entry.outMsgHashes) del(this.byOutMsg, h);
  }

  /**
   * Transactions of `account`, newest first. `lt`/`hash` select the first (newest) transaction
   * returned, inclusive; `toLt` is an exclusive lower bound.
   */
  list(
    account: string,
    opts: {
      limit: number;
      lt?: bigint;
      hash?: Buffer;
      toLt?: bigint;
      offset?: number;
      sort?: 'desc' | 'asc';
      startLt?: bigint;
      endLt?: bigint;
    },
  ): IndexedTransaction[] {
    const list = this.byAccount.get(account) ?? [];
    let items = list.filter(
      (e) =>
        (opts.lt === undefined || e.lt <= opts.lt) &&
        (opts.toLt === undefined || e.lt > opts.toLt) &&
        (opts.startLt === undefined || e.lt >= opts.startLt) &&
        (opts.endLt === undefined || e.lt <= opts.endLt),
    );
    if (opts.lt !== undefined && opts.hash) {
      const first = items[items.length - 1];
      if (!first || first.lt !== opts.lt || !first.hash.equals(opts.hash))
        throw new TransactionNotFoundError(opts.lt, opts.hash);
    }
    items = opts.sort === 'asc' ? items : items.slice().reverse();
    const offset = opts.offset ?? 0;
    return items.slice(offset, offset + opts.limit);
  }

  /** The oldest retained lt of an account (history before it was pruned). */
  oldestLt(account: string): bigint | undefined {
    return this.byAccount.get(account)?.[0]?.lt;
  }

  last(account: string): IndexedTransaction | undefined {
    const l = this.byAccount.get(account);
    return l?.[l.length - 1];
  }

  byTransactionHash(hash: Buffer): IndexedTransaction | undefined {
    return this.byHash.get(hash.toString('hex'));
  }

  /** Transaction whose inbound message has this raw or TEP-467 normalized hash. */
  byInboundMessage(hash: Buffer): IndexedTransaction | undefined {
    return this.byInMsg.get(hash.toString('hex'));
  }

  /** Transaction that emitted a message with this hash. */
  byOutboundMessage(hash: Buffer): IndexedTransaction | undefined {
    return this.byOutMsg.get(hash.toString('hex'));
  }

  /** All live entries in insertion order. */
  *entries(): Iterable<IndexedTransaction> {
    for (let i = this.fifoHead; i < this.fifo.length; i++) {
      const e = this.fifo[i];
      if (e && !e.evicted) yield e;
    }
  }

  serialize(): SerializedIndexEntry[] {
    return [...this.entries()].map((e) => ({
      boc: e.boc.toString('base64'),
      block: e.block,
      traceId: e.traceId.toString('base64'),
      inMsgHashNorm: e.inMsgHashNorm,
    }));
  }

  static restore(entries: SerializedIndexEntry[], limits?: TransactionIndexLimits): TransactionIndex {
    const index = new TransactionIndex(limits);
    for (const e of entries) {
      const [raw] = Cell.fromBoc(Buffer.from(e.boc, 'base64'));
      if (!raw) continue;
      index.add({
        raw,
        block: e.block,
        traceId: Buffer.from(e.traceId, 'base64'),
        inMsgHashNorm: e.inMsgHashNorm ? Buffer.from(e.inMsgHashNorm, 'hex') : null,
      });
    }
    return index;
  }
}

export function parseIndexed(entry: IndexedTransaction): Transaction {
  const [raw] = Cell.fromBoc(entry.boc);
  if (!raw) throw new Error('corrupt transaction BOC');
  return loadTransaction(raw.beginParse());
}

export class TransactionNotFoundError extends Error {
  constructor(lt: bigint, hash: Buffer) {
    super(`transaction ${lt}:${hash.toString('hex')} is not in the index (unknown or pruned)`);
  }
}
