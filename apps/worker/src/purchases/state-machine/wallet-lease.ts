/** The lease that allows one in-flight external per wallet across all worker replicas. */
export function walletLeaseName(walletRaw: string): string {
  return `wallet:${walletRaw}`;
}

/** A wallet lease is owned by the batch it sends, so any member can release it once the batch lands. */
export function batchLeaseOwner(batchId: string): string {
  return `batch:${batchId}`;
}
