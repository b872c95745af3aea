import type { Address, Cell, Transaction, TupleItem, TupleReader } from '@ton/core';

export type AccountStatus = 'active' | 'uninit' | 'frozen' | 'nonexist';

/**
 * How a scan of a wallet's history for one transaction ended: `found`; `absent`, every
 * transaction down to `sinceLt` (or the wallet's first) was read and none matched; or
 * `inconclusive`, the scan stopped first (its page cap, or a provider whose history ends before
 * the start). Inconclusive is never proof that nothing was paid (docs/purchase-safety.md).
 */
export type TransactionScan =
  | { outcome: 'found'; tx: Transaction }
  | { outcome: 'absent' }
  | { outcome: 'inconclusive'; reason: string; scannedDownToLt: string };

/** How a walk of a wallet's history ended: `stopped` by the visitor, `complete` down to its start, or `incomplete`. */
export type WalkEnd =
  { end: 'stopped' } | { end: 'complete' } | { end: 'incomplete'; reason: string; downToLt: bigint };

export interface WalkOptions {
  /** Only transactions with lt > sinceLt; reaching it completes the walk. */
  sinceLt?: bigint;
  /** Pages of the provider's history read at most (default: no cap). */
  maxPages?: number;
}

export interface AccountState {
  status: AccountStatus;
  /** nanoGRAM */
  balance: bigint;
  /** Hex hash of the code cell, when active. */
  codeHash?: string;
  data?: Cell;
  lastTransaction?: { lt: bigint; hash: string /* hex */ };
}

/**
 * The one port through which starsgate reads the chain and broadcasts. Adapter: toncenter
 * (production, and the local sandbox server, which speaks toncenter's API).
 * Failures are typed (see chain-errors.ts): ChainUnavailableError for transport/5xx/429 after
 * retries or no turn of the shared rate limit in time (docs/ton.md §9), ChainRequestError for a request the provider refused (4xx), ChainResponseError for
 * an answer that does not parse.
 */
export interface ChainClient {
  getAccountState(address: Address): Promise<AccountState>;
  /** 0 if undeployed. */
  getSeqno(address: Address): Promise<number>;
  runGetMethod(
    address: Address,
    method: string,
    stack?: TupleItem[],
  ): Promise<{ exitCode: number; stack: TupleReader }>;
  getJettonWalletAddress(master: Address, owner: Address): Promise<Address>;
  /** 0 if undeployed. */
  getJettonBalance(jettonWallet: Address): Promise<bigint>;
  /** Never retried automatically: callers rebroadcast the identical bytes themselves. */
  sendBoc(boc: string): Promise<{ normalizedHash: string }>;
  /** @ton/core Transaction objects, newest first. `afterLt`: only transactions with lt > afterLt. */
  getTransactions(address: Address, opts?: { limit?: number; afterLt?: bigint }): Promise<Transaction[]>;
  /**
   * Visits the account's transactions newest first, page by page, following each transaction's
   * prev link down to `sinceLt` or the account's first transaction; the visitor answers true to stop.
   */
  walkTransactions(
    address: Address,
    visit: (tx: Transaction) => boolean | Promise<boolean>,
    opts?: WalkOptions,
  ): Promise<WalkEnd>;
  /**
   * Scans the wallet's own transactions, computing each external in_msg's normalized hash (hex),
   * down to `sinceLt` within a page cap: found, absent down to the start, or inconclusive.
   */
  findTransactionByNormalizedHash(
    wallet: Address,
    normalizedHash: string,
    opts?: { sinceLt?: bigint },
  ): Promise<TransactionScan>;
  /** The transaction of `account` whose inbound message has this hash (hex or base64). */
  findTransactionByInMessageHash(account: Address, messageHash: string): Promise<Transaction | null>;
}
