import {
  Address,
  beginCell,
  Cell,
  loadTransaction,
  storeMessage,
  storeShardAccount,
  type Message,
  type StateInit,
  type Transaction,
} from '@ton/core';
import type { BlockBuilder } from './block-builder';
import type { ChainCore } from './chain-core';
import type { ChainFaults } from './chain-faults';
import { ExternalRejectedError, type FeeEstimate } from './local-chain-types';
import { parseExternalBoc } from './message-hash';

/**
 * Submission: externals are checked at submit by a dry run against the last block's state (as
 * toncenter's sendBoc does) and then wait for the next block; `estimateFee` runs the same
 * emulation without committing anything.
 */
export class ExternalSubmission {
  constructor(
    private readonly core: ChainCore,
    private readonly blocks: BlockBuilder,
    private readonly faults: ChainFaults,
  ) {}

  /**
   * Accepts a signed external-in message BOC (base64 string or bytes). Throws `BocError` for
   * malformed input and `ExternalRejectedError` when a dry run against the current state fails
   * (bad signature, wrong seqno, expired, wrong wallet id...). Otherwise queues it for the next
   * block and returns its raw and TEP-467 normalized hashes (base64). Re-submitting identical
   * bytes while queued is idempotent.
   */
  async submitExternal(boc: Buffer | string): Promise<{ hash: string; hashNorm: string }> {
    this.core.assertOpen();
    const parsed = parseExternalBoc(boc);
    const result = { hash: parsed.hash.toString('base64'), hashNorm: parsed.hashNorm.toString('base64') };
    const key = parsed.hash.toString('hex');
    if (this.blocks.isQueued(key)) return result;
    const outcome = await this.core.lock.run(() => this.dryRun(parsed.message, false));
    if (!outcome.ok) {
      this.core.stats.rejectedAtSubmit++;
      throw new ExternalRejectedError(parsed.message.info.dest, outcome.exitCode, outcome.reason);
    }
    // Another submit of the same bytes may have been queued while we were dry-running.
    if (this.blocks.isQueued(key)) return result;
    if (this.faults.takeDropExternal()) {
      this.core.stats.droppedExternals++;
      return result;
    }
    this.blocks.enqueueExternal(parsed, Date.now() + this.faults.inclusionDelayMs());
    return result;
  }

  /** Emulates `message` against the current state without committing anything. Lock held by caller. */
  private async dryRun(
    message: Message,
    ignoreChksig: boolean,
  ): Promise<{ ok: true; tx: Transaction } | { ok: false; exitCode: number | undefined; reason: string }> {
    const dest = message.info.dest;
    if (!(dest instanceof Address)) return { ok: false, exitCode: undefined, reason: 'no destination' };
    const contract = await this.core.blockchain.getContract(dest);
    const res = await this.core.blockchain.executor.runTransaction({
      config: this.core.blockchain.configBase64,
      libs: this.core.blockchain.libs ?? null,
      verbosity: 'short',
      shardAccount: beginCell().store(storeShardAccount(contract.account)).endCell().toBoc().toString('base64'),
      now: Math.max(this.core.lastBlockNow, Math.floor(Date.now() / 1000)),
      lt: this.core.blockchain.lt,
      randomSeed: Buffer.alloc(32),
      ignoreChksig,
      debugEnabled: false,
      prevBlocksInfo: this.core.blockchain.prevBlocks,
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
    const outcome = await this.core.lock.run(() => this.dryRun(message, args.ignoreChksig ?? true));
    if (!outcome.ok) throw new ExternalRejectedError(address, outcome.exitCode, outcome.reason);
    const d = outcome.tx.description;
    const prices = this.core.config().prices;
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
