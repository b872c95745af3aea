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
import { decide, type DecidedFor, type PurchaseDecision } from '../persistence/purchase-decision';
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

/** The wallet transaction executed but did not send this purchase's payment: it fails. */
export function unpaidFailure(deps: StepDeps, purchase: HeldPurchase, tx: Transaction): PurchaseDecision {
  const verdict = judgeWalletTransaction(tx, batchSizeOf(purchase));
  const txHash = tx.hash().toString('hex');
  return decide.fail(
    deps,
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
 * after `delayMs`. Two decisions, applied together.
 */
export function batchPollDecisions(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  delayMs: number,
  changes: PurchaseDecision['changes'] = {},
  reason?: string,
  data?: unknown,
  extras: Pick<PurchaseDecision, 'mergeEvidence'> = {},
): Array<DecidedFor<HeldPurchase>> {
  const first = members.find(isGram);
  const later = members.filter((member) => isGram(member) && member !== first);
  return [
    {
      held: members.filter((member) => !later.includes(member)),
      decision: decide.reschedule(delayMs, changes, reason, data, extras),
    },
    { held: later, decision: decide.reschedule(delayMs + deps.config.pollIntervalMs, changes, reason, data, extras) },
  ];
}

/** One GRAM transaction judged for a batch's members: the failures of those it did not pay, then the payment of the rest. */
export interface PaidBatch {
  /** Each applied on its own, before `payment`. */
  unpaid: Array<DecidedFor<HeldPurchase>>;
  paid: HeldPurchase[];
  payment: PurchaseDecision;
}

/**
 * Judges one GRAM transaction as the payment of every member whose own message it carries (one
 * decision for them all, which also makes the `alongside` changes: evidence merged, reason
 * prefixed), and fails the members it did not pay.
 */
export function judgePaidBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  tx: Transaction,
  alongside: { changes?: PurchaseChanges; evidence?: Record<string, unknown>; reason?: string } = {},
): PaidBatch {
  const paid: HeldPurchase[] = [];
  const unpaid: Array<DecidedFor<HeldPurchase>> = [];
  let bounceable = false;
  for (const member of members) {
    const own = findPaymentMessage(tx, member.row.paymentRequest!);
    if (own) paid.push(member);
    else unpaid.push({ held: member, decision: unpaidFailure(deps, member, tx) });
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
  const payment = decide.move(
    deps,
    null,
    { ...alongside.changes, transactionHash: chain.tx_hash, transactionLt: chain.lt },
    reason,
    chain,
    { mergeEvidence: { ...alongside.evidence, chain } },
  );
  return { unpaid, paid, payment };
}

/** Past the step's deadline a parked purchase's own job runs this long after it, so the deadline has passed. */
const DEADLINE_SLACK_MS = 50;

/**
 * Releases paid members to wait for Fragment's delivery without costing anything while they wait:
 * each row is written once, due at its step's deadline, with that one delayed job; until then
 * nothing touches it. The delivery watch's shared look per Fragment account (delivery-watch.ts)
 * claims and completes the members it shows delivered. Should every look be lost, the deadline job
 * (or the sweeper's, after a Redis flush) runs the step: a last look, then completion or
 * reconciliation_required, exactly as a poll at the deadline did. One decision per deadline; once
 * they are applied the delivery watch is told.
 */
export function deliveryParkDecisions(
  deps: StepDeps,
  members: readonly HeldPurchase[],
): Array<DecidedFor<HeldPurchase>> {
  const byDeadline = new Map<number, HeldPurchase[]>();
  for (const member of members) {
    const due = member.row.stepStartedAt.getTime() + deps.config.maxAges.confirmingMs + DEADLINE_SLACK_MS;
    byDeadline.set(due, [...(byDeadline.get(due) ?? []), member]);
  }
  const now = deps.now();
  return [...byDeadline].map(([due, group]) => ({ held: group, decision: decide.reschedule(Math.max(0, due - now)) }));
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
 * The completion of held members a look showed delivered: one decision per kind of proof and mode
 * (an account's look may answer purchases and checkouts at once; a statement takes one mode),
 * applied one after the other.
 */
export function completionDecisions(
  deps: StepDeps,
  entries: ReadonlyArray<{ member: HeldPurchase; observed: ObservedDelivery }>,
): Array<DecidedFor<HeldPurchase>> {
  const byProof = new Map<string, Array<{ member: HeldPurchase; observed: ObservedDelivery }>>();
  for (const entry of entries) {
    const key = `${entry.member.row.mode}|${entry.observed.proof.join('+')}`;
    byProof.set(key, [...(byProof.get(key) ?? []), entry]);
  }
  return [...byProof.values()].map((group) => {
    const proof = group[0]!.observed.proof;
    return {
      held: group.map((entry) => entry.member),
      decision: decide.complete(
        deps,
        `delivered (${proof.join(', ')}): ${completionReason(proof)}`,
        group.map(({ member, observed: { delivery } }) => ({
          transaction_hash: member.row.transactionHash,
          evidence: proof,
          fragment: delivery.detail,
          ...(delivery.historyFormatError !== undefined ? { history_format_error: delivery.historyFormatError } : {}),
        })),
        { mergeEvidence: { delivery: { proof, mode: deps.config.deliveryProof } } },
      ),
    };
  });
}

/** What one look at Fragment decided for held members: applied in order, they settle `settled`, `count` of them delivered. */
export interface DeliveryLook {
  decisions: Array<DecidedFor<HeldPurchase>>;
  settled: Set<HeldPurchase>;
  count: number;
}

/**
 * One look at Fragment for held `members` (reads made before `notBefore` are not reused): the
 * delivered complete, those past the deadline go to reconciliation_required with the evidence.
 */
export async function lookAtDeliveries(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  notBefore: number,
): Promise<DeliveryLook> {
  const observed = await observeDeliveries(
    deps,
    members.map((member) => member.row),
    notBefore,
  );
  const delivered: Array<{ member: HeldPurchase; observed: ObservedDelivery }> = [];
  const settled = new Set<HeldPurchase>();
  const decisions: Array<DecidedFor<HeldPurchase>> = [];
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
      const decision = decide.reconcile(
        deps,
        member.row,
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
      decisions.push({ held: member, decision });
      settled.add(member);
    }
  }
  decisions.push(...completionDecisions(deps, delivered));
  return { decisions, settled, count: delivered.length };
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
