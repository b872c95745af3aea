import { Address, beginCell, storeMessage, type Message, type Transaction } from '@ton/core';
import { findPaymentMessage, judgeJettonTransfer } from '@starsgate/ton';
import { pollOwnTransaction } from '../chain/chain-lookup';
import { landingEstimate } from '../chain/landing-estimate';
import { judgeUnseen, type UnseenVerdict } from '../chain/unseen-external';
import { crashAt } from '../crash-points';
import {
  adoptBatchSiblings,
  batchPollDecisions,
  completionDecisions,
  deliveryParkDecisions,
  judgePaidBatch,
  lookAtDeliveries,
  unpaidFailure,
  type ChainEvidence,
  type ObservedDelivery,
} from '../delivery/batch-settlement';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide, type PurchaseDecision } from '../persistence/purchase-decision';
import { applyDecision, applyDecisions } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';
import { releaseWallet } from '../wallet/wallet-lease';

/**
 * `confirming`, for members whose payment this job just recorded (`submitted` hands them on in
 * the same job): they wait for Fragment to report their orders delivered.
 */
export async function awaitDeliveries(deps: StepDeps, paid: readonly HeldPurchase[]): Promise<void> {
  await settleDeliveries(deps, paid);
}

/**
 * Paid members waiting for Fragment: those it shows delivered complete (one statement per
 * signal), those past the step's deadline go to reconciliation_required with the evidence, the
 * rest park. Fragment delivers a batch's orders close together: once a look showed some, this job
 * looks again every FAST_POLL_MS, as long as each poll interval brings more, before the rest park.
 */
async function settleDeliveries(deps: StepDeps, members: readonly HeldPurchase[]): Promise<void> {
  const { fastPollMs, pollIntervalMs, leaseMs } = deps.config;
  // The members' leases were taken for leaseMs: the watch ends well before they run out.
  const watchEndsBy = deps.now() + leaseMs / 2;
  let waiting = members;
  let watchUntil: number | undefined;
  for (let lookedAt = 0; ;) {
    const look = await lookAtDeliveries(deps, waiting, lookedAt);
    for (const { held, decision } of look.decisions) await applyDecision(deps, held, decision);
    waiting = waiting.filter((member) => !look.settled.has(member));
    if (waiting.length === 0) return;
    if (look.count > 0) watchUntil = Math.min(deps.now() + pollIntervalMs, watchEndsBy);
    if (watchUntil === undefined || deps.now() + fastPollMs > watchUntil) break;
    await deps.sleep(fastPollMs);
    lookedAt = deps.now();
  }
  if (deps.deliveryWatch) {
    // Parked at their deadlines; the delivery watch then knows some wait.
    await applyDecisions(deps, deliveryParkDecisions(deps, waiting)).finally(() => deps.deliveryWatch?.waiting());
  } else await applyDecisions(deps, batchPollDecisions(deps, waiting, pollIntervalMs));
}

/**
 * Records one GRAM transaction as the payment of every member whose own message it carries, in
 * one statement that also makes the `alongside` changes, after failing the members it did not
 * pay (judgePaidBatch). Returns the paid members.
 */
export async function recordPaidBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  tx: Transaction,
  alongside?: Parameters<typeof judgePaidBatch>[3],
): Promise<HeldPurchase[]> {
  const { unpaid, paid, payment } = judgePaidBatch(deps, members, tx, alongside);
  for (const { held, decision } of unpaid) await applyDecision(deps, held, decision);
  await applyDecision(deps, paid, payment);
  return paid;
}

/** Parked members the delivery watch claimed because its look showed them delivered: they complete. */
export async function completeDelivered(
  deps: StepDeps,
  entries: ReadonlyArray<{ member: HeldPurchase; observed: ObservedDelivery }>,
): Promise<void> {
  for (const { held, decision } of completionDecisions(deps, entries)) await applyDecision(deps, held, decision);
}

/** Parked members the chain watch claimed because it found their transaction: released due now, their job judges it. */
export async function wakeLanded(deps: StepDeps, members: readonly HeldPurchase[]): Promise<void> {
  await applyDecision(deps, members, decide.reschedule(0, {}, 'the chain watch found its transaction'));
}

/** Applies what judgeUnseen decided for an external the chain does not show, then what follows it. */
export async function applyUnseen(deps: StepDeps, purchase: HeldPurchase, verdict: UnseenVerdict): Promise<void> {
  await applyDecision(deps, purchase, verdict.decision);
  if (verdict.then === 'tell_chain_watch') deps.chainWatch!.waiting();
  if (verdict.then === 'release_wallet') await releaseWallet(deps, purchase);
}

function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
}

/**
 * `confirming`: find the wallet transaction by the normalized hash, judge this purchase's own
 * message (and for USDT its jetton transfer), then wait for Fragment to report the order done.
 * A GRAM purchase settles, with its transaction, the other members of its batch that nobody holds
 * (recordPaidBatch, settleDeliveries): one job and a few statements for the whole batch.
 * Money that left but was never delivered by the deadline → reconciliation_required, never a repay.
 */
export async function confirmingStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  crashAt(deps.config, 'during_confirming');
  const row = purchase.row;
  const request = row.paymentRequest!;
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
    // Not found (absent or inconclusive): judgeUnseen judges it with its own fresh lookup.
    tx = scan.outcome === 'found' ? scan.tx : null;
  } catch (error) {
    if (age > config.maxAges.confirmingMs) {
      await applyDecision(
        deps,
        purchase,
        decide.reconcile(
          deps,
          row,
          { code: 'OUTCOME_UNKNOWN' },
          { lookup_error: (error as Error).message, normalized_hash: row.normalizedHash },
          'the chain could not be asked before the deadline',
        ),
      );
      return;
    }
    await applyDecision(
      deps,
      purchase,
      decide.retry(deps, row, 'chain lookup failed', { error: (error as Error).message }),
    );
    return;
  }
  if (!tx) {
    await applyUnseen(deps, purchase, await judgeUnseen(deps, purchase, config.maxAges.confirmingMs));
    return;
  }
  landingEstimate(deps).found(row.batchId!, deps.now());
  await releaseWallet(deps, purchase);
  if (!request.jetton) {
    const paid = await recordPaidBatch(deps, [purchase, ...(await adoptBatchSiblings(deps, purchase, false))], tx);
    await settleDeliveries(deps, paid);
    return;
  }

  const txHash = tx.hash().toString('hex');
  const own = findPaymentMessage(tx, request);
  if (!own) {
    await applyDecision(deps, purchase, unpaidFailure(deps, purchase, tx));
    return;
  }
  const chainEvidence: ChainEvidence = { tx_hash: txHash, lt: tx.lt.toString() };
  const jettonTx = await deps.chain
    .findTransactionByInMessageHash(Address.parse(request.jetton.jettonWallet), messageHash(own))
    .catch(() => null);
  if (!jettonTx) {
    if (age > config.maxAges.confirmingMs) {
      await applyDecision(
        deps,
        purchase,
        decide.reconcile(
          deps,
          row,
          {
            code: 'OUTCOME_UNKNOWN',
            message: 'The GRAM message left the wallet but the jetton transfer was not found before the deadline.',
          },
          { chain: chainEvidence },
          'jetton trace not found',
        ),
      );
      return;
    }
    // Its transaction is found: the chain watch has nothing more to look for.
    const { landing_wait: _parked, ...rest } = evidence;
    await applyDecision(deps, purchase, decide.reschedule(config.pollIntervalMs, _parked ? { evidence: rest } : {}));
    return;
  }
  const verdict = judgeJettonTransfer({
    payerJettonWalletTx: jettonTx,
    expectedQueryId: BigInt(request.jetton.queryId),
  });
  if (!verdict.ok) {
    const failure: PurchaseDecision = decide.fail(
      deps,
      {
        code: 'TRANSACTION_FAILED',
        message: `The USDT transfer failed: ${verdict.detail}.`,
        details: [{ reason: verdict.reason, transaction_hash: txHash }],
      },
      'jetton transfer failed',
      { transaction_hash: txHash, jetton_transaction_hash: jettonTx.hash().toString('hex') },
    );
    await applyDecision(deps, purchase, failure);
    return;
  }
  chainEvidence.jetton_tx_hash = jettonTx.hash().toString('hex');
  // The wallet sent exactly Fragment's request (findPaymentMessage) and the jetton transfer executed.
  chainEvidence.settled = true;
  await applyDecision(
    deps,
    purchase,
    decide.move(
      deps,
      row,
      {
        transactionHash: txHash,
        transactionLt: chainEvidence.lt,
        evidence: purchase.evidenceWith({ chain: chainEvidence }),
      },
      'payment found on chain',
      chainEvidence,
    ),
  );
  await settleDeliveries(deps, [purchase]);
}
