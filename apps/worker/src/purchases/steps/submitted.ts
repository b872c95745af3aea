import { FragmentError } from '@starsgate/fragment';
import { landingEstimate } from '../chain/landing-estimate';
import { signedBocOf } from '../chain/signed-external';
import { batchPollDecisions } from '../delivery/batch-settlement';
import type { BroadcastBatch, NextStep } from '../next-step';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide } from '../persistence/purchase-decision';
import { applyDecision, applyDecisions } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';
import { recordPaidBatch } from './confirming';

/**
 * Fragment's confirm for one purchase: its order, the batch's external BOC (read from storage
 * unless the caller holds the bytes it just persisted), its payer account.
 */
async function confirmWithFragment(
  deps: StepDeps,
  purchase: HeldPurchase,
  boc?: string,
): Promise<'confirmed' | 'not_requested'> {
  const request = purchase.row.paymentRequest!;
  // Fragment's own script calls no confirm when the link answer named no method.
  if (request.confirmMethod === undefined) return 'not_requested';
  return deps.fragment.session(request.fragmentSession).confirm({
    confirmMethod: request.confirmMethod,
    confirmParams: request.confirmParams,
    boc: boc ?? (await signedBocOf(deps, purchase.row)),
    account: request.account,
    product: request.product,
  });
}

/**
 * `submitted`: bind the signed external to the Fragment order (`confirm`, docs/fragment-protocol.md §8.1 —
 * mandatory). Repeating confirm with the same BOC is safe; a lost answer is retried until the
 * step's maximum age, then the purchase moves on and Fragment's own Ref# matching decides.
 */
export async function submittedStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  try {
    const confirmed = await confirmWithFragment(deps, purchase);
    // The external was broadcast moments ago: the first chain lookup is aimed at when recent ones landed.
    await applyDecision(
      deps,
      purchase,
      decide.reschedule(
        firstLookupAfterMs(deps),
        {
          status: 'confirming',
          stepStartedAt: new Date(deps.now()),
          evidence: purchase.evidenceWith({ confirm: confirmEvidence(confirmed, new Date(deps.now())) }),
        },
        confirmed === 'confirmed' ? 'confirmed with Fragment' : 'Fragment asked for no confirm',
      ),
    );
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // Fragment delivers only once it holds the confirm, and repeating it with the same BOC never
    // moves money: a transient refusal ("… try again later", classified in packages/fragment) is
    // repeated as a lost answer is.
    const transient = error instanceof FragmentError ? error.retryable || error.outcomeUnknown : true;
    const expired = deps.now() - purchase.row.stepStartedAt.getTime() > deps.config.maxAges.submittedMs;
    if (transient && !expired) {
      await applyDecision(
        deps,
        purchase,
        decide.retry(deps, purchase.row, 'confirm failed; repeating with the same BOC', {
          error: text,
          outcome_unknown: error instanceof FragmentError && error.outcomeUnknown,
        }),
      );
      return;
    }
    await applyDecision(
      deps,
      purchase,
      decide.reschedule(
        0,
        {
          status: 'confirming',
          stepStartedAt: new Date(deps.now()),
          evidence: purchase.evidenceWith({
            confirm: {
              ok: false,
              error: text,
              outcome_unknown: error instanceof FragmentError && error.outcomeUnknown,
            },
          }),
        },
        'confirm not acknowledged; waiting for chain and Fragment',
        { error: text },
      ),
    );
  }
}

/** What the purchase's evidence says of the confirm: accepted, or not asked for by Fragment. */
function confirmEvidence(outcome: 'confirmed' | 'not_requested', at: Date): Record<string, unknown> {
  return { ok: true, at: at.toISOString(), ...(outcome === 'not_requested' ? { requested: false } : {}) };
}

function firstLookupAfterMs(deps: StepDeps): number {
  return landingEstimate(deps).firstLookupAfterMs(deps.config.pollIntervalMs, 10 * deps.config.pollIntervalMs);
}

/** At most this many confirms of one batch are in flight at once. */
const BATCH_CONFIRM_CONCURRENCY = 16;

/**
 * `submitted`, right after the sender's broadcast (`sending` hands the batch on in the same job,
 * every member still held): confirms each with Fragment while `submitted` is being recorded. If
 * the sender's watch found the transaction meanwhile and the batch is all GRAM, those confirmed
 * move to `confirming` with their payment recorded, in one statement, and are handed on to wait
 * for their deliveries: no poll job in between. Otherwise they move to `confirming` together (one
 * statement, one enqueue), their first lookup aimed at when recent externals landed. A member
 * whose confirm failed is released as `submitted`, and its own job runs `submittedStep` with that
 * step's retries and deadline.
 */
export async function confirmBroadcastBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  { boc, broadcastAt, landed, recorded }: BroadcastBatch,
): Promise<NextStep | undefined> {
  const errors = new Array<string | undefined>(members.length);
  const outcomes = new Array<'confirmed' | 'not_requested' | undefined>(members.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(BATCH_CONFIRM_CONCURRENCY, members.length) }, async () => {
      while (next < members.length) {
        const index = next++;
        errors[index] = await confirmWithFragment(deps, members[index]!, boc).then(
          (outcome) => {
            outcomes[index] = outcome;
            return undefined;
          },
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      }
    }),
  );
  await recorded;
  const at = new Date(deps.now());
  const confirmed = members.filter((_, i) => errors[i] === undefined);
  const failed = members.filter((_, i) => errors[i] !== undefined);
  const tx = await landed;
  const toConfirming = {
    changes: { status: 'confirming' as const, stepStartedAt: at },
    evidence: {
      confirm: confirmEvidence(outcomes.includes('confirmed') ? 'confirmed' : 'not_requested', at),
    },
    reason: 'confirmed with Fragment',
  };
  const paidOnChain = tx && confirmed.length > 0 && !confirmed.some((member) => member.row.paymentRequest!.jetton);
  const settled = await Promise.allSettled([
    paidOnChain
      ? recordPaidBatch(deps, confirmed, tx, toConfirming)
      : // The first chain lookup is aimed at when recent externals landed, counted from the
        // broadcast: a large batch's confirms may already have taken part of that time.
        applyDecisions(
          deps,
          batchPollDecisions(
            deps,
            confirmed,
            tx ? 0 : Math.max(0, broadcastAt + firstLookupAfterMs(deps) - at.getTime()),
            toConfirming.changes,
            toConfirming.reason,
            undefined,
            { mergeEvidence: toConfirming.evidence },
          ),
        ).then(() => []),
    applyDecision(
      deps,
      failed,
      decide.reschedule(0, {}, "the sender's confirm failed; the purchase confirms on its own", {
        errors: [...new Set(errors.filter((e) => e !== undefined))],
      }),
    ),
  ]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
  const paid = settled[0].status === 'fulfilled' ? settled[0].value : [];
  return paid.length > 0 ? { status: 'confirming', held: paid } : undefined;
}
