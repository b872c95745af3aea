import type { PurchaseRow } from '@starsgate/db';
import { contextFromCarrier, inSpan, purchaseJobId, tracingEnabled } from '@starsgate/platform';
import { HeldPurchase } from '../persistence/held-purchase';
import { dropStaleJobs } from '../persistence/purchase-jobs';
import type { StepDeps } from '../step-deps';
import { SharedLook } from '../waits/shared-look';
import { completeDelivered } from '../steps/confirming';
import { observeDeliveries, type ObservedDelivery } from './batch-settlement';

/**
 * The shared look of paid purchases parked for Fragment's delivery (deliveryParkDecisions), one per
 * Fragment account: one history read answers all of the account's purchases (observeDeliveries).
 * Only those it shows delivered are claimed, fenced on the version listed, and completed.
 */
export function deliveryWatch(deps: StepDeps): SharedLook {
  return new SharedLook(deps, {
    name: 'delivery-watch',
    list: async (limit) => {
      return (await deps.parkedPurchases.awaitingDelivery(limit)).map((parked) => ({
        id: parked.id,
        version: parked.version,
        group: deps.fragment.session(parked.fragmentSession).accountId(),
      }));
    },
    look: (rows, owner) => lookForDeliveries(deps, rows, owner),
  });
}

async function lookForDeliveries(deps: StepDeps, parked: readonly PurchaseRow[], owner: string): Promise<number> {
  // Full rows of what was listed, as of the versions listed (a row that moved is another's now).
  const rows = parked.filter((row) => row.status === 'confirming' && row.transactionHash !== null);
  if (rows.length === 0) return 0;
  const observed = await observeDeliveries(deps, rows, deps.now());
  const delivered = observed.filter((seen) => seen.completes);
  if (delivered.length === 0) return 0;
  const claimed = await deps.parkedPurchases.claim(
    delivered.map((seen) => ({ id: seen.row.id, version: seen.row.version })),
    'confirming',
    owner,
    deps.config.leaseMs,
  );
  if (claimed.length === 0) return 0;
  const seenById = new Map<string, ObservedDelivery>(delivered.map((seen) => [seen.row.id, seen]));
  await completeDelivered(
    deps,
    claimed.map((row: PurchaseRow) => ({
      member: new HeldPurchase(deps, row, owner),
      observed: { ...seenById.get(row.id)!, row },
    })),
  );
  await traceCompletions(deps, claimed);
  // Their deadline jobs are for the version before the claim: stale now.
  await dropStaleJobs(deps, claimed);
  return claimed.length;
}

/**
 * A purchase's trace runs from its POST through every job (each job carries its enqueuer's trace);
 * one the watch completes gets a span in that trace too, read from its parked deadline job.
 */
async function traceCompletions(deps: StepDeps, completed: readonly PurchaseRow[]): Promise<void> {
  if (!tracingEnabled()) return;
  await Promise.all(
    completed.map(async (row) => {
      const job = await deps.queue.getJob(purchaseJobId(row.id, row.version - 1)).catch(() => undefined);
      await inSpan(
        'purchase.delivered',
        { 'starsgate.purchase_id': row.id, 'starsgate.status': row.status },
        () => Promise.resolve(),
        contextFromCarrier(job?.data.trace),
      );
    }),
  );
}
