import type { PurchaseRow } from '@starsgate/db';
import { HeldPurchase } from '../persistence/held-purchase';
import { dropStaleJobs } from '../persistence/purchase-jobs';
import type { StepDeps } from '../step-deps';
import { wakeLanded } from '../steps/confirming';
import { SharedLook } from '../waits/shared-look';
import { findOwnTransaction } from './chain-lookup';
import { rebroadcast } from './unseen-external';

/**
 * The shared look of purchases parked until their broadcast external lands (judgeUnseen), one
 * per paying wallet: one read of the wallet's transactions since the batch was signed answers
 * every member of the batch. Before valid_until the wallet is looked at every poll interval, and
 * each look rebroadcasts the batch's persisted bytes, exactly what each member's poll did
 * (identical bytes: idempotent on chain). A transaction found wakes the batch's members (claimed
 * fenced on the version listed, released due now: their `confirming` job judges the transaction);
 * nothing else is written. Expiry stays with each member's deadline job.
 */
export function chainWatch(deps: StepDeps): SharedLook {
  return new SharedLook(deps, {
    name: 'chain-watch',
    list: async (limit) => {
      const now = deps.now();
      return (await deps.parkedPurchases.awaitingLanding(limit)).map((parked) => ({
        id: parked.id,
        version: parked.version,
        group: parked.walletAddress,
        ...(parked.validUntil !== null && now <= parked.validUntil * 1000
          ? { lookWithinMs: deps.config.pollIntervalMs }
          : {}),
      }));
    },
    look: (rows, owner) => lookForLandings(deps, rows, owner),
  });
}

async function lookForLandings(deps: StepDeps, parked: readonly PurchaseRow[], owner: string): Promise<number> {
  const rows = parked.filter((row) => row.status === 'confirming' && row.transactionHash === null);
  const batches = new Map<string, PurchaseRow[]>();
  for (const row of rows) batches.set(row.normalizedHash!, [...(batches.get(row.normalizedHash!) ?? []), row]);
  let moved = 0;
  for (const members of batches.values()) {
    const leader = members[0]!;
    const scan = await findOwnTransaction(deps, leader);
    if (scan.outcome !== 'found') {
      if (deps.now() <= leader.validUntil! * 1000) await rebroadcast(deps, leader);
      continue;
    }
    const claimed = await deps.parkedPurchases.claim(
      members.map((row) => ({ id: row.id, version: row.version })),
      'confirming',
      owner,
      deps.config.leaseMs,
    );
    if (claimed.length === 0) continue;
    await wakeLanded(
      deps,
      claimed.map((row) => new HeldPurchase(deps, row, owner)),
    );
    // Their deadline jobs are for the version before the claim: stale now.
    await dropStaleJobs(deps, claimed);
    moved += claimed.length;
  }
  return moved;
}
