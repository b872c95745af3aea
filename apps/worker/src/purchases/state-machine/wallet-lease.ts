import type { StepDeps } from './step-deps';

/** The lease that allows one in-flight external per wallet across all worker replicas. */
export function walletLeaseName(walletRaw: string): string {
  return `wallet:${walletRaw}`;
}

/** A wallet lease is owned by the batch it sends, so any member can release it once the batch lands. */
export function batchLeaseOwner(batchId: string): string {
  return `batch:${batchId}`;
}

const heldHere = new WeakMap<object, Set<string>>();

/**
 * Wallets whose lease a sender of this process took and that this process has not seen released.
 * A purchase just prepared for one of them parks without first asking PostgreSQL for the lease;
 * the parked purchase checks the lease right after parking, so a stale entry costs a wake-up,
 * never a lost one, and is dropped there.
 */
export function walletsHeldHere(deps: StepDeps): Set<string> {
  let wallets = heldHere.get(deps.leases);
  if (!wallets) {
    wallets = new Set();
    heldHere.set(deps.leases, wallets);
  }
  return wallets;
}
