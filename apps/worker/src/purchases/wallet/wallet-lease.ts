import type { HeldLease } from '@starsgate/db';
import type { HeldPurchase } from '../persistence/held-purchase';
import { dropStaleJobs, enqueueNext } from '../persistence/purchase-jobs';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';

/** The lease that allows one in-flight external per wallet across all worker replicas. */
export function walletLeaseName(walletRaw: string): string {
  return `wallet:${walletRaw}`;
}

/** A wallet lease is owned by the batch it sends, so any member can release it once the batch lands. */
export function batchLeaseOwner(batchId: string): string {
  return `batch:${batchId}`;
}

/**
 * Frees the wallet for the next external once this batch's fate is known on chain. Every member
 * learns that fate; in this process the first one releases and wakes, the others reuse its answer.
 */
export async function releaseWallet(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  const { batchId, walletAddress } = purchase.row;
  if (!batchId || !walletAddress) return;
  await sharedCall(deps.leases, `release:${batchId}`, { now: deps.now(), maxAgeMs: 60_000 }, async () => {
    const released = await deps.leases.releaseOwnedBy(walletLeaseName(walletAddress), batchLeaseOwner(batchId));
    if (released) await wakeNextSender(deps, walletAddress);
  });
}

/**
 * Purchases that found their wallet busy are parked, not polling; whoever frees the wallet wakes
 * the oldest one, which becomes the next sender and batches the rest. If this wake-up is lost
 * (a crash), the parked purchases run at their fallback time (WALLET_BUSY_RETRY_MS).
 */
export async function wakeNextSender(deps: StepDeps, walletRaw: string): Promise<void> {
  const next = await deps.signedBatches.wakeNextToSend(walletRaw);
  // Its parked fallback job is stale once woken.
  if (next) await Promise.all([enqueueNext(deps, [next]), dropStaleJobs(deps, [next])]);
}

/** Frees a wallet lease taken for a batch that was never persisted, and wakes the wallet's next sender. */
export async function freeWallet(deps: StepDeps, lease: HeldLease, walletRaw: string): Promise<void> {
  await deps.leases.release(lease);
  await wakeNextSender(deps, walletRaw);
}
