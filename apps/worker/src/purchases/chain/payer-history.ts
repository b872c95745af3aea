import type { Address, Transaction } from '@ton/core';
import type { AccountState, ChainClient, WalkEnd } from '@starsgate/ton';

/** A payer's externals kept at most: a wallet sending more within a checkout's few minutes reads as incomplete. */
const MAX_EXTERNALS_PER_PAYER = 5_000;
/** A payer nobody asked about for this long is forgotten. */
const FORGET_AFTER_MS = 15 * 60_000;
/**
 * A record is read afresh this long after its first walk, so what it keeps covers recent checkouts
 * only (a checkout waits for its signature at most TON Connect's 5 minutes, plus a margin).
 */
const RECORD_MAX_AGE_MS = 10 * 60_000;
const MAX_PAYERS = 10_000;

/** What one scan of a payer saw, as the chain calls a checkout's payment scan makes (scanForCheckoutPayment). */
export interface PayerHistoryView {
  /** Serves the scan from this read: the account state read once, the externals walked since `sinceLt`. */
  chain: Pick<ChainClient, 'getAccountState' | 'walkTransactions'>;
  /** Scans in a row (this one included) that found nothing new on the payer's account. */
  idleScans: number;
}

interface Recorded {
  /** History is read completely down to this lt (exclusive). */
  fromLt: bigint;
  /** The newest transaction lt read. */
  toLt: bigint;
  /** External-in transactions in (fromLt, toLt], newest first: the only ones that can pay a checkout. */
  externals: Transaction[];
  /** A walk could not be read completely: nothing below `downToLt` is known. */
  gap?: { reason: string; downToLt: bigint };
  /** When the first walk, down to fromLt, was read. */
  startedAt: number;
  state: AccountState;
  idleScans: number;
  readAt: number;
  usedAt: number;
}

/**
 * The checkout watch's reads of payer wallets (docs/security.md, attack 17). Every open checkout
 * used to walk its payer's whole history since it was prepared at every poll, with one more
 * account read per external in it, so a few checkouts naming a busy wallet took the shared
 * toncenter budget. Here, per payer and process: one account read per scan, which tells whether
 * anything happened since the last one; a walk of only the transactions newer than the newest lt
 * already read (the first scan walks down to the checkout's start, with no page cap, attack 7);
 * one read at a time, shared by every checkout of the payer, and reused by those that ask within
 * `reuseMs`. The scan itself (scanForCheckoutPayment) runs unchanged over what was recorded.
 */
export class PayerHistories {
  private readonly payers = new Map<string, Recorded>();
  private readonly reads = new Map<string, { startedAt: number; recorded: Promise<Recorded> }>();

  constructor(
    private readonly chain: Pick<ChainClient, 'getAccountState' | 'walkTransactions'>,
    private readonly options: { reuseMs: number; now: () => number },
  ) {}

  /**
   * The payer's history since `sinceLt` as of a read that started at or after `notBefore` (a
   * verdict after a checkout's deadline needs a read begun after it) and at most `reuseMs` ago.
   */
  async view(payer: Address, sinceLt: bigint, notBefore = 0): Promise<PayerHistoryView> {
    const key = payer.toRawString();
    const now = this.options.now();
    const known = this.payers.get(key);
    const fresh =
      known !== undefined &&
      known.fromLt <= sinceLt &&
      known.readAt >= notBefore &&
      now - known.readAt <= this.options.reuseMs;
    const recorded = fresh ? known : await this.read(key, payer, sinceLt, notBefore);
    recorded.usedAt = now;
    return { chain: replay(recorded, sinceLt), idleScans: recorded.idleScans };
  }

  /** One read per payer at a time: a checkout that asks meanwhile joins it. */
  private read(key: string, payer: Address, sinceLt: bigint, notBefore: number): Promise<Recorded> {
    const inFlight = this.reads.get(key);
    if (inFlight)
      return inFlight.recorded.then(
        (recorded) =>
          recorded.fromLt <= sinceLt && inFlight.startedAt >= notBefore
            ? recorded
            : this.read(key, payer, sinceLt, notBefore),
        () => this.read(key, payer, sinceLt, notBefore),
      );
    const startedAt = this.options.now();
    const recorded = this.readFromChain(payer, sinceLt, this.payers.get(key), startedAt).then((read) => {
      this.remember(key, read);
      return read;
    });
    const entry = { startedAt, recorded: recorded.finally(() => this.reads.delete(key)) };
    this.reads.set(key, entry);
    return entry.recorded;
  }

  /** `readAt`: when the read began, before the account state was asked for. */
  private async readFromChain(
    payer: Address,
    sinceLt: bigint,
    known: Recorded | undefined,
    readAt: number,
  ): Promise<Recorded> {
    const state = await this.chain.getAccountState(payer);
    const newest = state.lastTransaction?.lt;
    if (known && !known.gap && known.fromLt <= sinceLt && readAt - known.startedAt <= RECORD_MAX_AGE_MS) {
      // Without a last transaction in the answer nothing says the account is idle: walk.
      if (newest !== undefined && newest <= known.toLt)
        return { ...known, state, idleScans: known.idleScans + 1, readAt };
      const fresh = await this.walk(payer, known.toLt);
      // The newer part could not be read: keep what is known, and say the scan is incomplete for now.
      if (fresh.end.end === 'incomplete') {
        const unknownAbove = (newest !== undefined && newest > known.toLt ? newest : known.toLt) + 1n;
        return { ...known, state, gap: { reason: fresh.end.reason, downToLt: unknownAbove }, idleScans: 0, readAt };
      }
      const externals = [...fresh.externals, ...known.externals];
      const kept = externals.slice(0, MAX_EXTERNALS_PER_PAYER);
      return {
        ...known,
        toLt: fresh.toLt ?? known.toLt,
        externals: kept,
        ...(kept.length < externals.length ? { gap: tooManyExternals(kept[kept.length - 1]!.lt) } : {}),
        state,
        idleScans: 0,
        readAt,
      };
    }
    const walked = await this.walk(payer, sinceLt);
    return {
      fromLt: sinceLt,
      toLt: walked.toLt ?? sinceLt,
      externals: walked.externals,
      ...(walked.end.end === 'incomplete' ? { gap: { reason: walked.end.reason, downToLt: walked.end.downToLt } } : {}),
      state,
      idleScans: 0,
      readAt,
      usedAt: readAt,
      startedAt: readAt,
    };
  }

  /** The payer's transactions after `sinceLt`, newest first: their newest lt and the externals among them. */
  private async walk(
    payer: Address,
    sinceLt: bigint,
  ): Promise<{ toLt: bigint | undefined; externals: Transaction[]; end: WalkEnd }> {
    let toLt: bigint | undefined;
    const externals: Transaction[] = [];
    let end = await this.chain.walkTransactions(
      payer,
      (tx) => {
        if (toLt === undefined || tx.lt > toLt) toLt = tx.lt;
        if (tx.inMessage?.info.type === 'external-in') externals.push(tx);
        return externals.length > MAX_EXTERNALS_PER_PAYER;
      },
      { sinceLt },
    );
    if (end.end === 'stopped') end = { end: 'incomplete', ...tooManyExternals(externals[externals.length - 1]!.lt) };
    return { toLt, externals, end };
  }

  private remember(key: string, recorded: Recorded): void {
    if (!this.payers.has(key) && this.payers.size >= MAX_PAYERS) {
      const now = this.options.now();
      for (const [stored, old] of this.payers) if (now - old.usedAt > FORGET_AFTER_MS) this.payers.delete(stored);
      if (this.payers.size >= MAX_PAYERS) this.payers.delete(this.payers.keys().next().value!);
    }
    this.payers.set(key, recorded);
  }
}

function tooManyExternals(downToLt: bigint): { reason: string; downToLt: bigint } {
  return { reason: `more than ${MAX_EXTERNALS_PER_PAYER} externals since the checkout's start`, downToLt };
}

/** A chain that answers one checkout's scan from a payer's recorded read. */
function replay(recorded: Recorded, sinceLt: bigint): PayerHistoryView['chain'] {
  return {
    getAccountState: () => Promise.resolve(recorded.state),
    walkTransactions: async (_address, visit) => {
      for (const tx of recorded.externals) {
        if (tx.lt <= sinceLt) break;
        if (await visit(tx)) return { end: 'stopped' };
      }
      const { gap } = recorded;
      if (gap && gap.downToLt > sinceLt + 1n) return { end: 'incomplete', ...gap };
      return { end: 'complete' };
    },
  };
}
