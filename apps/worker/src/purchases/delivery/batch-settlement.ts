import type { Transaction } from '@ton/core';
import {
  lookalikeKey,
  lookalikesOnAccount,
  lookalikeWindow,
  type PaidLookalike,
  type PurchaseChanges,
} from '@starsgate/db';
import { findPaymentMessage, judgeWalletTransaction } from '@starsgate/ton';
import { CLOCK_SKEW_MS, observeDelivery, type DeliveryObservation, type LookalikeCounter } from './delivery-check';
import type { StepDeps } from '../step-deps';
import { completeAll, moveAll, rescheduleAll, type BatchWriteOptions } from '../persistence/batch-writes';
import { HeldPurchase } from '../persistence/held-purchase';
import { dropStaleJobs } from '../persistence/purchase-jobs';

export interface ChainEvidence {
  tx_hash: string;
  lt: string;
  jetton_tx_hash?: string;
  /**
   * The payment of exactly Fragment's request executed: right receiver, amount and payload cell,
   * the wallet transaction's compute and action phases successful, the message not bounceable
   * (USDT: the jetton transfer executed, no bounce). With an accepted confirm: `chain_settled`.
   */
  settled?: boolean;
  /** Why not settled, when the transaction paid but is not judged settled. */
  unsettled?: string;
}

/** How many purchases the external that paid this one carried (recorded when it was signed). */
export function batchSizeOf(purchase: HeldPurchase): number {
  return (purchase.row.evidence as { batch?: { size?: number } } | null)?.batch?.size ?? 1;
}

/** The wallet transaction executed but did not send this purchase's payment. */
export async function failUnpaid(purchase: HeldPurchase, tx: Transaction): Promise<void> {
  const verdict = judgeWalletTransaction(tx, batchSizeOf(purchase));
  const txHash = tx.hash().toString('hex');
  await purchase.fail(
    {
      code: 'TRANSACTION_FAILED',
      message: `The wallet transaction executed but did not send this payment: ${verdict.ok ? 'its message is missing' : verdict.detail}.`,
      details: [{ reason: verdict.ok ? 'MESSAGE_MISSING' : verdict.reason, transaction_hash: txHash }],
    },
    'executed without paying',
    { transaction_hash: txHash },
  );
}

const isGram = (member: HeldPurchase): boolean => member.row.paymentMethod === 'gram';

/**
 * The other members of this purchase's batch in `confirming` that nobody holds, claimed under this
 * job's owner so it settles them together: `paid` false for those whose payment is not recorded
 * yet, true for those waiting for delivery. Their own jobs then find nothing to do.
 */
export async function adoptBatchSiblings(
  deps: StepDeps,
  purchase: HeldPurchase,
  paid: boolean,
): Promise<HeldPurchase[]> {
  const { batchId } = purchase.row;
  if (!batchId || batchSizeOf(purchase) < 2) return [];
  const rows = await deps.transitions.claimBatchSiblings(
    batchId,
    purchase.row.id,
    paid,
    purchase.owner,
    deps.config.leaseMs,
  );
  await dropStaleJobs(deps, rows);
  return rows.map((row) => new HeldPurchase(deps, row, purchase.owner));
}

/**
 * Releases a batch's members for their next poll: the first GRAM member is due after `delayMs`
 * and settles the other GRAM members with it (adoptBatchSiblings); those are due a poll interval
 * later, only in case it could not. Were they all due together, each job would claim its own row
 * first and the batch would be polled member by member. USDT members (judged one by one) are due
 * after `delayMs`.
 */
export async function scheduleBatchPoll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  delayMs: number,
  changes: Parameters<typeof rescheduleAll>[3] = {},
  reason?: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  const first = members.find(isGram);
  const later = members.filter((member) => isGram(member) && member !== first);
  const settled = await Promise.allSettled([
    rescheduleAll(
      deps,
      members.filter((member) => !later.includes(member)),
      delayMs,
      changes,
      reason,
      data,
      options,
    ),
    rescheduleAll(deps, later, delayMs + deps.config.pollIntervalMs, changes, reason, data, options),
  ]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
}

/**
 * Records one GRAM transaction as the payment of every member whose own message it carries, in
 * one statement that also makes the `alongside` changes (evidence merged, reason prefixed), and
 * fails the members it did not pay. Returns the paid members.
 */
export async function settlePaidBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  tx: Transaction,
  alongside: { changes?: PurchaseChanges; evidence?: Record<string, unknown>; reason?: string } = {},
): Promise<HeldPurchase[]> {
  const paid: HeldPurchase[] = [];
  let bounceable = false;
  for (const member of members) {
    const own = findPaymentMessage(tx, member.row.paymentRequest!);
    if (own) paid.push(member);
    else await failUnpaid(member, tx);
    if (own?.info.type === 'internal' && own.info.bounce) bounceable = true;
  }
  const verdict = paid[0] ? judgeWalletTransaction(tx, batchSizeOf(paid[0])) : undefined;
  const chain: ChainEvidence = {
    tx_hash: tx.hash().toString('hex'),
    lt: tx.lt.toString(),
    settled: verdict?.ok === true && !bounceable,
    ...(verdict && !verdict.ok
      ? { unsettled: verdict.detail }
      : bounceable
        ? { unsettled: 'a bounceable message' }
        : {}),
  };
  const reason = alongside.reason ? `${alongside.reason}; payment found on chain` : 'payment found on chain';
  await moveAll(
    deps,
    paid,
    { ...alongside.changes, transactionHash: chain.tx_hash, transactionLt: chain.lt },
    reason,
    chain,
    { mergeEvidence: { ...alongside.evidence, chain } },
  );
  return paid;
}

/**
 * Paid members waiting for Fragment: those it shows delivered complete (one statement per
 * signal), those past the step's deadline go to reconciliation_required with the evidence, the
 * rest poll again. Fragment delivers a batch's orders close together: once a look showed some,
 * this job looks again every FAST_POLL_MS, as long as each poll interval brings more, before the
 * rest poll.
 */
export async function settleDeliveries(deps: StepDeps, members: readonly HeldPurchase[]): Promise<void> {
  const { fastPollMs, pollIntervalMs, leaseMs } = deps.config;
  // The members' leases were taken for leaseMs: the watch ends well before they run out.
  const watchEndsBy = deps.now() + leaseMs / 2;
  let waiting = members;
  let watchUntil: number | undefined;
  for (let lookedAt = 0; ;) {
    const delivered = await settleDeliveriesOnce(deps, waiting, lookedAt);
    waiting = waiting.filter((member) => !delivered.settled.has(member));
    if (waiting.length === 0) return;
    if (delivered.count > 0) watchUntil = Math.min(deps.now() + pollIntervalMs, watchEndsBy);
    if (watchUntil === undefined || deps.now() + fastPollMs > watchUntil) break;
    await deps.sleep(fastPollMs);
    lookedAt = deps.now();
  }
  await scheduleBatchPoll(deps, waiting, pollIntervalMs);
}

/**
 * One look at Fragment for `members` (reads made before `notBefore` are not reused): completes the
 * delivered, reconciles those past the deadline. Returns the members it settled either way and how
 * many were delivered.
 */
async function settleDeliveriesOnce(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  notBefore: number,
): Promise<{ settled: Set<HeldPurchase>; count: number }> {
  const countLookalikes = groupLookalikeCounter(deps, members);
  const observed = await Promise.all(
    members.map(async (member) => {
      const request = member.row.paymentRequest!;
      const since = Math.max(member.row.stepStartedAt.getTime(), notBefore);
      const delivery = await observeDelivery(
        deps,
        member.row,
        deps.fragment.session(request.fragmentSession),
        since,
        countLookalikes,
      );
      return { member, delivery };
    }),
  );
  const proofMode = deps.config.deliveryProof;
  const byProof = new Map<string, Array<{ member: HeldPurchase; delivery: DeliveryObservation; proof: string[] }>>();
  const settled = new Set<HeldPurchase>();
  let count = 0;
  for (const { member, delivery } of observed) {
    const chainSettled = isChainSettled(member);
    // The evidence a completion names: what Fragment showed, and the settled payment when judged so.
    const proof = [...(delivery.via ? [delivery.via] : []), ...(chainSettled ? ['chain_settled'] : [])];
    if (delivery.delivered || (proofMode === 'chain' && chainSettled)) {
      const key = proof.join('+');
      byProof.set(key, [...(byProof.get(key) ?? []), { member, delivery, proof }]);
      settled.add(member);
      count += 1;
      continue;
    }
    const chain = (member.row.evidence as { chain: ChainEvidence }).chain;
    if (deps.now() - member.row.stepStartedAt.getTime() > deps.config.maxAges.confirmingMs) {
      const formatError = delivery.historyFormatError;
      await member.reconcile(
        {
          code: 'DELIVERY_UNCONFIRMED',
          ...(formatError !== undefined
            ? { message: `Fragment's history page has an unknown format (${formatError}); delivery could not be read.` }
            : {}),
          details: [
            {
              ref: member.row.fragmentRef,
              transaction_hash: chain.tx_hash,
              ...(formatError !== undefined ? { upstream_format_error: formatError } : {}),
            },
          ],
        },
        {
          chain,
          fragment_done: false,
          fragment: delivery.detail,
          ref: member.row.fragmentRef,
          ...(formatError !== undefined ? { history_format_error: formatError } : {}),
        },
        formatError !== undefined
          ? "paid on chain; Fragment's history page could not be read (unknown format) before the deadline"
          : 'paid on chain but Fragment did not report delivery before the deadline',
      );
      settled.add(member);
    }
  }
  for (const entries of byProof.values()) {
    const proof = entries[0]!.proof;
    await completeAll(
      deps,
      entries.map((entry) => entry.member),
      `delivered (${proof.join(', ')}): ${completionReason(proof)}`,
      entries.map(({ member, delivery }) => ({
        transaction_hash: member.row.transactionHash,
        evidence: proof,
        fragment: delivery.detail,
        ...(delivery.historyFormatError !== undefined ? { history_format_error: delivery.historyFormatError } : {}),
      })),
      { mergeEvidence: { delivery: { proof, mode: proofMode } } },
    );
  }
  return { settled, count };
}

/** The payment of exactly Fragment's request settled on chain, and the confirm accepted (or not asked for). */
function isChainSettled(member: HeldPurchase): boolean {
  const evidence = member.row.evidence as { chain?: ChainEvidence; confirm?: { ok?: boolean } } | null;
  return evidence?.chain?.settled === true && evidence.confirm?.ok === true;
}

function completionReason(proof: readonly string[]): string {
  if (proof.includes('history_listed')) return "Fragment's history lists this order";
  if (proof.includes('state_done')) return "Fragment's status screen shows this order done";
  return "the payment of exactly Fragment's request settled on chain and the confirm was accepted";
}

/**
 * Paid look-alikes of every member of a group, read with one query on first use (only a member
 * that the history or status screen may vouch for needs them) and counted per member.
 */
function groupLookalikeCounter(deps: StepDeps, members: readonly HeldPurchase[]): LookalikeCounter {
  const earliest = Math.min(...members.map((member) => member.row.createdAt.getTime())) - CLOCK_SKEW_MS;
  let read: Promise<Map<string, PaidLookalike[]>> | undefined;
  return async (row, since, account) => {
    read ??= deps.transitions.paidLookalikesSince(
      members.map((member) => member.row),
      new Date(earliest),
    );
    const lookalikes = (await read).get(lookalikeKey(row)) ?? [];
    return lookalikeWindow(lookalikesOnAccount(lookalikes, account), since, CLOCK_SKEW_MS);
  };
}
