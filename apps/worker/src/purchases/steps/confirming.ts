import { Address, beginCell, storeMessage, type Message, type Transaction } from '@ton/core';
import { FragmentError } from '@starsgate/fragment';
import { findPaymentMessage, judgeJettonTransfer } from '@starsgate/ton';
import {
  adoptBatchSiblings,
  failUnpaid,
  scheduleBatchPoll,
  settleDeliveries,
  settlePaidBatch,
  type ChainEvidence,
} from '../delivery/batch-settlement';
import { pollOwnTransaction, watchForLanding } from '../chain/chain-lookup';
import { crashAt } from '../crash-points';
import { landingEstimate } from '../chain/landing-estimate';
import { paymentRequestOf } from '../policy/payment-request';
import { handleUnseen } from './sending';
import { releaseWallet } from '../wallet/wallet-lease';
import { signedBocOf } from '../chain/signed-external';
import type { StepDeps } from '../step-deps';
import { rescheduleAll, type HeldPurchase } from '../persistence/held-purchase';

/**
 * Fragment's confirm for one purchase: its order, the batch's external BOC (read from storage
 * unless the caller holds the bytes it just persisted), its payer account.
 */
async function confirmWithFragment(
  deps: StepDeps,
  purchase: HeldPurchase,
  boc?: string,
): Promise<'confirmed' | 'not_requested'> {
  const request = paymentRequestOf(purchase.row.paymentRequest)!;
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
    await purchase.reschedule(
      firstLookupAfterMs(deps),
      {
        status: 'confirming',
        stepStartedAt: new Date(deps.now()),
        evidence: purchase.evidenceWith({ confirm: confirmEvidence(confirmed, new Date(deps.now())) }),
      },
      confirmed === 'confirmed' ? 'confirmed with Fragment' : 'Fragment asked for no confirm',
    );
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    // Fragment delivers only once it holds the confirm, and repeating it with the same BOC never
    // moves money: a transient refusal ("… try again later", classified in packages/fragment) is
    // repeated as a lost answer is.
    const transient = error instanceof FragmentError ? error.retryable || error.outcomeUnknown : true;
    const expired = deps.now() - purchase.row.stepStartedAt.getTime() > deps.config.maxAges.submittedMs;
    if (transient && !expired) {
      await purchase.retry('confirm failed; repeating with the same BOC', {
        error: text,
        outcome_unknown: error instanceof FragmentError && error.outcomeUnknown,
      });
      return;
    }
    await purchase.reschedule(
      0,
      {
        status: 'confirming',
        stepStartedAt: new Date(deps.now()),
        evidence: purchase.evidenceWith({
          confirm: { ok: false, error: text, outcome_unknown: error instanceof FragmentError && error.outcomeUnknown },
        }),
      },
      'confirm not acknowledged; waiting for chain and Fragment',
      { error: text },
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

/**
 * The sender's follow-up to a broadcast batch (`boc`, as persisted), still holding every member:
 * confirms each with Fragment while `submitted` records the broadcast. If `landed` found the
 * transaction meanwhile and the batch is all GRAM, those confirmed move to `confirming` with
 * their payment recorded, in one statement, and this job goes on to their deliveries
 * (settleDeliveries): no poll job in between. Otherwise they move to `confirming` together (one
 * statement, one enqueue), their first lookup aimed at when recent externals landed. A member
 * whose confirm failed is released as `submitted`, and its own job runs `submittedStep` with that
 * step's retries and deadline.
 */
export async function confirmBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  boc: string,
  broadcastAt: number,
  landed: Promise<Transaction | null>,
  submitted: Promise<void>,
): Promise<void> {
  // Awaited after the confirms; a rejection meanwhile must not count as unhandled.
  submitted.catch(() => undefined);
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
  await submitted;
  const at = new Date(deps.now());
  const confirmed = members.filter((_, i) => errors[i] === undefined);
  const failed = members.filter((_, i) => errors[i] !== undefined);
  const tx = await landed;
  const toConfirming = {
    changes: { status: 'confirming', stepStartedAt: at },
    evidence: {
      confirm: confirmEvidence(outcomes.includes('confirmed') ? 'confirmed' : 'not_requested', at),
    },
    reason: 'confirmed with Fragment',
  };
  const settled = await Promise.allSettled([
    tx && confirmed.length > 0 && !confirmed.some((member) => paymentRequestOf(member.row.paymentRequest)!.jetton)
      ? settlePaidBatch(deps, confirmed, tx, toConfirming).then((paid) => settleDeliveries(deps, paid))
      : // The first chain lookup is aimed at when recent externals landed, counted from the
        // broadcast: a large batch's confirms may already have taken part of that time.
        scheduleBatchPoll(
          deps,
          confirmed,
          tx ? 0 : Math.max(0, broadcastAt + firstLookupAfterMs(deps) - at.getTime()),
          toConfirming.changes,
          toConfirming.reason,
          undefined,
          {
            mergeEvidence: toConfirming.evidence,
          },
        ),
    rescheduleAll(deps, failed, 0, {}, "the sender's confirm failed; the purchase confirms on its own", {
      errors: [...new Set(errors.filter((e) => e !== undefined))],
    }),
  ]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
}

function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
}

/**
 * `confirming`: find the wallet transaction by the normalized hash, judge this purchase's own
 * message (and for USDT its jetton transfer), then wait for Fragment to report the order done.
 * A GRAM purchase settles, with its transaction, the other members of its batch that nobody holds
 * (settlePaidBatch, settleDeliveries): one job and a few statements for the whole batch.
 * Money that left but was never delivered by the deadline → reconciliation_required, never a repay.
 */
export async function confirmingStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  crashAt(deps.config, 'during_confirming');
  const row = purchase.row;
  const request = paymentRequestOf(row.paymentRequest)!;
  const { config } = deps;
  const age = deps.now() - row.stepStartedAt.getTime();
  const evidence = (row.evidence as Record<string, unknown> | null) ?? {};
  if (evidence.chain) {
    await settleDeliveries(
      deps,
      request.jetton ? [purchase] : [purchase, ...(await adoptBatchSiblings(deps, purchase, true))],
    );
    return;
  }

  let tx: Transaction | null;
  try {
    const scan = await pollOwnTransaction(deps, row);
    // Not found (absent or inconclusive): handleUnseen judges it with its own fresh lookup.
    tx = scan.outcome === 'found' ? scan.tx : null;
  } catch (error) {
    if (age > config.maxAges.confirmingMs) {
      await purchase.reconcile(
        { code: 'OUTCOME_UNKNOWN' },
        { lookup_error: (error as Error).message, normalized_hash: row.normalizedHash },
        'the chain could not be asked before the deadline',
      );
      return;
    }
    await purchase.retry('chain lookup failed', { error: (error as Error).message });
    return;
  }
  if (!tx) {
    await handleUnseen(deps, purchase, config.maxAges.confirmingMs);
    return;
  }
  landingEstimate(deps).found(row.batchId!, deps.now());
  await releaseWallet(deps, purchase);
  if (!request.jetton) {
    const paid = await settlePaidBatch(deps, [purchase, ...(await adoptBatchSiblings(deps, purchase, false))], tx);
    await settleDeliveries(deps, paid);
    return;
  }

  const txHash = tx.hash().toString('hex');
  const own = findPaymentMessage(tx, request);
  if (!own) {
    await failUnpaid(purchase, tx);
    return;
  }
  const chainEvidence: ChainEvidence = { tx_hash: txHash, lt: tx.lt.toString() };
  const jettonTx = await deps.chain
    .findTransactionByInMessageHash(Address.parse(request.jetton.jettonWallet), messageHash(own))
    .catch(() => null);
  if (!jettonTx) {
    if (age > config.maxAges.confirmingMs) {
      await purchase.reconcile(
        {
          code: 'OUTCOME_UNKNOWN',
          message: 'The GRAM message left the wallet but the jetton transfer was not found before the deadline.',
        },
        { chain: chainEvidence },
        'jetton trace not found',
      );
      return;
    }
    await purchase.reschedule(config.pollIntervalMs);
    return;
  }
  const verdict = judgeJettonTransfer({
    payerJettonWalletTx: jettonTx,
    expectedQueryId: BigInt(request.jetton.queryId),
  });
  if (!verdict.ok) {
    await purchase.fail(
      {
        code: 'TRANSACTION_FAILED',
        message: `The USDT transfer failed: ${verdict.detail}.`,
        details: [{ reason: verdict.reason, transaction_hash: txHash }],
      },
      'jetton transfer failed',
      { transaction_hash: txHash, jetton_transaction_hash: jettonTx.hash().toString('hex') },
    );
    return;
  }
  chainEvidence.jetton_tx_hash = jettonTx.hash().toString('hex');
  // The wallet sent exactly Fragment's request (findPaymentMessage) and the jetton transfer executed.
  chainEvidence.settled = true;
  await purchase.move(
    {
      transactionHash: txHash,
      transactionLt: chainEvidence.lt,
      evidence: purchase.evidenceWith({ chain: chainEvidence }),
    },
    'payment found on chain',
    chainEvidence,
  );
  await settleDeliveries(deps, [purchase]);
}
