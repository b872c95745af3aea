import type { Transaction } from '@ton/core';
import type { HeldPurchase } from '../persistence/held-purchase';
import type { StepDeps } from '../step-deps';
import { releaseWallet } from '../wallet/wallet-lease';
import { watchForLanding } from './chain-lookup';
import { landingEstimate } from './landing-estimate';

/** For this many poll intervals past its expected landing, the sender watches a batch's landing. */
const LANDING_WATCH_POLLS = 3;

/**
 * The sender, right after its broadcast: looks for the batch's transaction every FAST_POLL_MS
 * from when recent externals landed, and frees the wallet as soon as it is found, while the batch
 * is still being confirmed with Fragment: the wallet's next batch is signed without waiting for
 * those confirms or for a poll job. Not found within a few poll intervals: the members' polling
 * goes on as usual. Resolves the transaction if it was found.
 */
export async function watchBatchLanding(
  deps: StepDeps,
  leader: HeldPurchase,
  broadcastAt: number,
): Promise<Transaction | null> {
  const { fastPollMs, pollIntervalMs } = deps.config;
  const dueAt = broadcastAt + landingEstimate(deps).firstLookupAfterMs(fastPollMs, 10 * pollIntervalMs);
  try {
    const tx = await watchForLanding(deps, leader.row, dueAt, dueAt + LANDING_WATCH_POLLS * pollIntervalMs);
    if (!tx) return null;
    landingEstimate(deps).found(leader.row.batchId!, deps.now());
    await releaseWallet(deps, leader);
    return tx;
  } catch {
    // The members' own lookups judge the batch; this was only a head start.
    return null;
  }
}
