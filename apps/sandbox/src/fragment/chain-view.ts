import type { Address, Transaction } from '@ton/core';

/**
 * The part of the local chain the Fragment simulator needs. `LocalChain`
 * (apps/sandbox/src/chain/local-chain.ts) satisfies it structurally.
 */
export interface FragmentChainView {
  /** Called after every emulated block with the transactions it included. Returns an unsubscribe function. */
  onBlock(listener: (transactions: Transaction[]) => void): () => void;
  readonly usdtMaster: Address;
  getJettonWalletAddress(owner: Address): Promise<Address>;
  /** Chain time, unix seconds. `validUntil` and order expiry use it, because the wallet checks its `valid_until` against it. */
  now(): number;
}
