import { crashAt } from '../crash-points';
import { findOwnTransaction } from '../chain/chain-lookup';
import { watchBatchLanding } from '../chain/landing-watch';
import { landingEstimate } from '../chain/landing-estimate';
import { broadcastExternal } from '../chain/signed-external';
import { judgeUnseen, rebroadcast } from '../chain/unseen-external';
import type { NextStep, SignedBatch } from '../next-step';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide } from '../persistence/purchase-decision';
import { applyDecision } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';
import { applyUnseen } from './confirming';

/**
 * `sending`, right after the wallet's sender persisted the batch (`preparing` hands it on in the
 * same job): broadcast the persisted bytes. Accepted: the sender watches for the batch's landing
 * while the members move to `submitted`, and hands them on to be confirmed with Fragment. Refused
 * or unanswered: they stay `sending` and their own jobs recover (sendingStep).
 */
export async function broadcastSignedBatch(
  deps: StepDeps,
  members: HeldPurchase[],
  signed: SignedBatch,
): Promise<NextStep | undefined> {
  const { config } = deps;
  const leader = members[0]!;
  let broadcastError: string | undefined;
  const broadcastAt = deps.now();
  landingEstimate(deps).broadcast(signed.batchId, broadcastAt);
  try {
    await broadcastExternal(deps, signed.batchId, signed.boc);
  } catch (error) {
    broadcastError = (error as Error).message;
  }
  crashAt(config, 'after_broadcast_before_confirm');

  if (broadcastError !== undefined) {
    // Stays `sending`: the recovery path rebroadcasts these same bytes or proves expiry.
    await applyDecision(
      deps,
      members,
      decide.reschedule(config.pollIntervalMs, {}, 'broadcast failed; will rebroadcast the same BOC', {
        error: broadcastError,
      }),
    );
    return undefined;
  }
  const landed = watchBatchLanding(deps, leader, broadcastAt);
  // Recorded while Fragment's confirms are in flight: they read only the payment requests.
  const recorded = applyDecision(
    deps,
    members,
    decide.move(deps, null, { status: 'submitted', stepStartedAt: new Date(deps.now()) }, 'broadcast', {
      batch_id: signed.batchId,
    }),
  );
  // Awaited by the `submitted` step after its confirms; a rejection meanwhile must not count as unhandled.
  recorded.catch(() => undefined);
  return { status: 'submitted', held: members, handoff: { boc: signed.boc, broadcastAt, landed, recorded } };
}

/**
 * A purchase found in `sending`: its BOC was persisted, but whether it was broadcast is unknown
 * (crash, lost lease, provider error). Look it up first; otherwise rebroadcast the same bytes
 * while they are valid; after expiry, prove non-execution (judgeUnseen).
 */
export async function sendingStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  const row = purchase.row;
  let landed: boolean;
  try {
    // Inconclusive is not landed: the same bytes are rebroadcast while valid, and judgeUnseen judges expiry.
    landed = (await findOwnTransaction(deps, row)).outcome === 'found';
  } catch (error) {
    await applyDecision(
      deps,
      purchase,
      decide.retry(deps, row, 'chain lookup failed while recovering a send', { error: (error as Error).message }),
    );
    return;
  }
  if (landed) {
    await applyDecision(
      deps,
      purchase,
      decide.reschedule(
        0,
        { status: 'submitted', stepStartedAt: new Date(deps.now()) },
        'found on chain while recovering the send',
      ),
    );
    return;
  }
  if (deps.now() <= row.validUntil! * 1000) {
    const result = await rebroadcast(deps, purchase.row);
    if (result.ok) {
      await applyDecision(
        deps,
        purchase,
        decide.reschedule(
          0,
          { status: 'submitted', stepStartedAt: new Date(deps.now()) },
          'rebroadcast the persisted BOC',
        ),
      );
    } else {
      await applyDecision(
        deps,
        purchase,
        decide.reschedule(deps.config.pollIntervalMs, {}, 'rebroadcast failed; will retry the same BOC', {
          error: result.error,
        }),
      );
    }
    return;
  }
  await applyUnseen(deps, purchase, await judgeUnseen(deps, purchase, deps.config.maxAges.confirmingMs));
}
