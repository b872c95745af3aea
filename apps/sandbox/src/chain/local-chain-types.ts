import type { Address, Cell, Transaction, TupleItem } from '@ton/core';
import type { ChainFaultConfig } from './chain-faults';
import type { TransactionIndexLimits } from './transaction-index';

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
