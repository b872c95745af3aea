import type { Transaction } from '@ton/core';
import {
  lookalikeKey,
  lookalikesOnAccount,
  lookalikeWindow,
  type PaidLookalike,
  type PurchaseChanges,
  type PurchaseRow,
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
  const rows = await deps.signedBatches.claimSiblings(
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

/** Past the step's deadline a parked purchase's own job runs this long after it, so the deadline has passed. */
const DEADLINE_SLACK_MS = 50;

/**
 * Paid members waiting for Fragment: those it shows delivered complete (one statement per
 * signal), those past the step's deadline go to reconciliation_required with the evidence, the
 * rest park. Fragment delivers a batch's orders close together: once a look showed some, this job
 * looks again every FAST_POLL_MS, as long as each poll interval brings more, before the rest park.
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
  if (deps.deliveryWatch) await parkForDelivery(deps, waiting);
  else await scheduleBatchPoll(deps, waiting, pollIntervalMs);
}

/**
 * Releases paid members to wait for Fragment's delivery without costing anything while they wait:
 * each row is written once, due at its step's deadline, with that one delayed job; until then
 * nothing touches it. The delivery watch's shared look per Fragment account (delivery-watch.ts)
 * claims and completes the members it shows delivered. Should every look be lost, the deadline job
 * (or the sweeper's, after a Redis flush) runs the step: a last look, then completion or
 * reconciliation_required, exactly as a poll at the deadline did.
 */
export async function parkForDelivery(deps: StepDeps, members: readonly HeldPurchase[]): Promise<void> {
  const byDeadline = new Map<number, HeldPurchase[]>();
  for (const member of members) {
    const due = member.row.stepStartedAt.getTime() + deps.config.maxAges.confirmingMs + DEADLINE_SLACK_MS;
    byDeadline.set(due, [...(byDeadline.get(due) ?? []), member]);
  }
  const now = deps.now();
  const settled = await Promise.allSettled(
    [...byDeadline].map(([due, group]) => rescheduleAll(deps, group, Math.max(0, due - now))),
  );
  deps.deliveryWatch?.waiting();
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
}

/** What one look at Fragment showed for a paid purchase, and the evidence its completion would name. */
export interface ObservedDelivery {
  row: PurchaseRow;
  delivery: DeliveryObservation;
  proof: string[];
  /** Delivered (or, with DELIVERY_PROOF=chain, its payment settled). */
  completes: boolean;
}

/**
 * One look at Fragment for paid purchases (reads made before `notBefore` are not reused), read
 * only: the account's history is read once for all of them (observeDelivery's shared read), their
 * look-alikes with one query.
 */
export async function observeDeliveries(
  deps: StepDeps,
  rows: readonly PurchaseRow[],
  notBefore: number,
): Promise<ObservedDelivery[]> {
  const countLookalikes = groupLookalikeCounter(deps, rows);
  const proofMode = deps.config.deliveryProof;
  return Promise.all(
    rows.map(async (row) => {
      const request = row.paymentRequest!;
      const since = Math.max(row.stepStartedAt.getTime(), notBefore);
      const delivery = await observeDelivery(
        deps,
        row,
        deps.fragment.session(request.fragmentSession),
        since,
        countLookalikes,
      );
      const chainSettled = isChainSettled(row);
      // The evidence a completion names: what Fragment showed, and the settled payment when judged so.
      const proof = [...(delivery.via ? [delivery.via] : []), ...(chainSettled ? ['chain_settled'] : [])];
      return { row, delivery, proof, completes: delivery.delivered || (proofMode === 'chain' && chainSettled) };
    }),
  );
}

/**
 * Completes held members a look showed delivered: one statement per kind of proof and mode (an
 * account's look may answer purchases and checkouts at once; a statement takes one mode).
 */
export async function completeObserved(
  deps: StepDeps,
  entries: ReadonlyArray<{ member: HeldPurchase; observed: ObservedDelivery }>,
): Promise<void> {
  const byProof = new Map<string, Array<{ member: HeldPurchase; observed: ObservedDelivery }>>();
  for (const entry of entries) {
    const key = `${entry.member.row.mode}|${entry.observed.proof.join('+')}`;
    byProof.set(key, [...(byProof.get(key) ?? []), entry]);
  }
  for (const group of byProof.values()) {
    const proof = group[0]!.observed.proof;
    await completeAll(
      deps,
      group.map((entry) => entry.member),
      `delivered (${proof.join(', ')}): ${completionReason(proof)}`,
      group.map(({ member, observed: { delivery } }) => ({
        transaction_hash: member.row.transactionHash,
        evidence: proof,
        fragment: delivery.detail,
        ...(delivery.historyFormatError !== undefined ? { history_format_error: delivery.historyFormatError } : {}),
      })),
      { mergeEvidence: { delivery: { proof, mode: deps.config.deliveryProof } } },
    );
  }
}

/**
 * One look at Fragment for held `members` (reads made before `notBefore` are not reused):
 * completes the delivered, reconciles those past the deadline. Returns the members it settled
 * either way and how many were delivered.
 */
async function settleDeliveriesOnce(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  notBefore: number,
): Promise<{ settled: Set<HeldPurchase>; count: number }> {
  const observed = await observeDeliveries(
    deps,
    members.map((member) => member.row),
    notBefore,
  );
  const delivered: Array<{ member: HeldPurchase; observed: ObservedDelivery }> = [];
  const settled = new Set<HeldPurchase>();
  for (const [index, seen] of observed.entries()) {
    const member = members[index]!;
    if (seen.completes) {
      delivered.push({ member, observed: seen });
      settled.add(member);
      continue;
    }
    const { delivery } = seen;
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
  await completeObserved(deps, delivered);
  return { settled, count: delivered.length };
}

/** The payment of exactly Fragment's request settled on chain, and the confirm accepted (or not asked for). */
function isChainSettled(row: PurchaseRow): boolean {
  const evidence = row.evidence as { chain?: ChainEvidence; confirm?: { ok?: boolean } } | null;
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
function groupLookalikeCounter(deps: StepDeps, rows: readonly PurchaseRow[]): LookalikeCounter {
  const earliest = Math.min(...rows.map((row) => row.createdAt.getTime())) - CLOCK_SKEW_MS;
  let read: Promise<Map<string, PaidLookalike[]>> | undefined;
  return async (row, since, account) => {
    read ??= deps.paidLookalikes.since(rows, new Date(earliest));
    const lookalikes = (await read).get(lookalikeKey(row)) ?? [];
    return lookalikeWindow(lookalikesOnAccount(lookalikes, account), since, CLOCK_SKEW_MS);
  };
}
