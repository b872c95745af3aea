import type { PurchaseRow } from '@starsgate/db';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';
import { inSpan } from '@starsgate/platform';

const REUSE_MS = 60_000;

/**
 * The BOC of the external that pays this purchase. Stored once per batch and never changed, so
 * one read answers every member that confirms or rebroadcasts it in this process.
 */
export function signedBocOf(deps: StepDeps, row: PurchaseRow): Promise<string> {
  const batchId = row.batchId;
  if (!batchId) return Promise.reject(new Error(`purchase ${row.id} has no signed external`));
  return sharedCall(deps.transitions, `external:${batchId}`, { now: deps.now(), maxAgeMs: REUSE_MS }, async () => {
    const external = await deps.signedBatches.external(batchId);
    if (!external) throw new Error(`signed external ${batchId} of purchase ${row.id} is missing`);
    return external.boc;
  });
}

/** A broadcast accepted this recently stands for every member that would repeat it. */
const REBROADCAST_AFTER_MS = 2_000;

/**
 * Broadcasts the batch's external (always the same bytes). Every member of a batch polls and, while
 * its transaction is unseen, rebroadcasts: within REBROADCAST_AFTER_MS of an accepted broadcast in
 * this process, that one answers instead of sending the whole batch's BOC again. A failed
 * broadcast is never reused.
 */
export function broadcastExternal(deps: StepDeps, batchId: string, boc: string): Promise<void> {
  return sharedCall(deps.chain, `broadcast:${batchId}`, { now: deps.now(), maxAgeMs: REBROADCAST_AFTER_MS }, () =>
    inSpan('purchase.broadcast', { 'starsgate.batch_id': batchId }, async () => {
      await deps.chain.sendBoc(boc);
    }),
  );
}
