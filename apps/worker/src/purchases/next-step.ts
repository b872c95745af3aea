import type { Transaction } from '@ton/core';
import type { HeldPurchase } from './persistence/held-purchase';

/** A batch this job signed and persisted: its members are `sending`, the bytes are in hand. */
export interface SignedBatch {
  batchId: string;
  /** The external exactly as persisted: the first broadcast reads nothing back. */
  boc: string;
}

/** A batch this job broadcast: its move to `submitted` is being recorded meanwhile. */
export interface BroadcastBatch {
  /** The external exactly as persisted and broadcast. */
  boc: string;
  broadcastAt: number;
  /** The sender's watch for the batch's transaction: resolves it if found, never rejects. */
  landed: Promise<Transaction | null>;
  /** The statement that moves every member to `submitted`; awaited before their next write. */
  recorded: Promise<void>;
}

/**
 * What a step hands back to the dispatcher (purchase-processor) when this job still holds
 * purchases that have moved on: the step of `status` runs them next in the same job, with what
 * the previous step already knows. A step never calls another step itself.
 */
export type NextStep =
  | { status: 'sending'; held: HeldPurchase[]; handoff: SignedBatch }
  | { status: 'submitted'; held: HeldPurchase[]; handoff: BroadcastBatch }
  /** Members whose payment this job just recorded: they wait for Fragment's delivery. */
  | { status: 'confirming'; held: HeldPurchase[] };
