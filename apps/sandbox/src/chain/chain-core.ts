import { Cell, type Address } from '@ton/core';
import type { Blockchain, SandboxContract, TreasuryContract } from '@ton/sandbox';
import { readBasechainPrices, type BasechainPrices } from './fee-config';
import { ChainClosedError } from './local-chain-types';
import { SerialLock } from './serial-lock';
import type { TransactionIndex } from './transaction-index';

export const QUIET = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false } as const;

/**
 * What every part of the local chain shares: the @ton/sandbox emulator behind one serial lock (so
 * reads never see half a block), the transaction index, the position of the block clock and the
 * counters. Blocks, submission, faucet, reads and persistence each work on it.
 */
export class ChainCore {
  readonly lock = new SerialLock();
  readonly stats = { blocks: 0, includedExternals: 0, droppedExternals: 0, rejectedAtSubmit: 0, lastBlockMs: 0 };
  /** Something changed since the last save. */
  dirty = false;
  closed = false;
  private parsedConfig: { base64: string; cell: Cell; prices: BasechainPrices } | undefined;

  constructor(
    readonly blockchain: Blockchain,
    readonly treasury: SandboxContract<TreasuryContract>,
    readonly usdtMaster: Address,
    readonly index: TransactionIndex,
    public blockSeqno: number,
    public lastBlockNow: number,
  ) {
    this.clearSandboxLog();
  }

  /**
   * The config in force. The emulator keeps it as base64 and its `config` getter parses it anew at
   * each call (tens of milliseconds): parsed again here only when it changes.
   */
  config(): { cell: Cell; prices: BasechainPrices } {
    const base64 = this.blockchain.configBase64;
    if (this.parsedConfig?.base64 !== base64) {
      const cell = Cell.fromBase64(base64);
      this.parsedConfig = { base64, cell, prices: readBasechainPrices(cell) };
    }
    return this.parsedConfig;
  }

  assertOpen(): void {
    if (this.closed) throw new ChainClosedError();
  }

  /** Sandbox keeps every transaction in memory for its own getTransactions; we never use it. */
  clearSandboxLog(): void {
    const log = (this.blockchain as unknown as { transactions?: unknown[] }).transactions;
    if (Array.isArray(log)) log.length = 0;
  }
}
