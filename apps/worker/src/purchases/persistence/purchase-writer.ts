import { assertWorkerMove } from '@starsgate/domain';
import type { HeldLease, PurchaseChanges, PurchaseRow, SignedExternalRow } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from './held-purchase';
import { LeaseLostError } from './lease-lost-error';
import type { DecidedFor, PurchaseDecision } from './purchase-decision';
import { enqueueNext } from './purchase-jobs';

/**
 * The one writer of the purchase state machine: applies a step's decision to the purchases it
 * holds, in one fenced, version-checked statement (the rows, one audit event per row), has every
 * member adopt its new row (the transition metrics hear each status change), and enqueues the next
 * jobs of a rescheduled decision in one Redis round trip. A member whose fence was lost raises
 * LeaseLostError, after the others were written (and enqueued), so the step stops before any further
 * side effect. A move the domain's lifecycle does not have throws before anything is written.
 */
export async function applyDecision(
  deps: StepDeps,
  held: HeldPurchase | readonly HeldPurchase[],
  decision: PurchaseDecision,
): Promise<void> {
  const members = Array.isArray(held) ? (held as readonly HeldPurchase[]) : [held as HeldPurchase];
  if (members.length === 0) return;
  const delay = decision.delayMs === undefined ? undefined : Math.max(0, Math.round(decision.delayMs));
  const changes: PurchaseChanges =
    delay === undefined ? decision.changes : { ...decision.changes, nextRunAt: new Date(deps.now() + delay) };
  const { rows, lost } = await writeMembers(deps, members, changes, decision);
  if (delay !== undefined) await enqueueNext(deps, rows, delay);
  if (lost) throw new LeaseLostError(lost.row.id);
}

/**
 * Several decisions at once (a batch's members split by what each needs), each its own statement;
 * every one is applied even if another raised, then the first error is raised.
 */
export async function applyDecisions(deps: StepDeps, decided: ReadonlyArray<DecidedFor<HeldPurchase>>): Promise<void> {
  const settled = await Promise.allSettled(decided.map(({ held, decision }) => applyDecision(deps, held, decision)));
  for (const result of settled) if (result.status === 'rejected') throw result.reason;
}

/**
 * Enters the wallet's sender with `decision`'s changes (one statement): takes the wallet lease if
 * it is free, owned by `walletLease.owner`, and keeps this purchase held; otherwise ends this job
 * until the lease's holder wakes it (or batches it). No job is enqueued for a parked purchase: it
 * is due after `parkDelayMs`, and should its wake-up be lost (its holder crashed), the sweeper
 * gives it its job then, as it does any live row without one. Enqueuing a fallback job for every
 * park cost a Redis round trip, and dropping it again another, for a case that needs a crash.
 * `lost`: this purchase's fence was lost, and `lease` (if taken anyway) is the caller's to free.
 */
export async function enterWalletSender(
  deps: StepDeps,
  purchase: HeldPurchase,
  walletLease: { name: string; owner: string; ttlMs: number },
  parkDelayMs: number,
  decision: Pick<PurchaseDecision, 'changes' | 'reason' | 'data'> = { changes: {} },
): Promise<{ lease: HeldLease | null; lost: boolean }> {
  const { changes, reason, data } = decision;
  if (changes.status) assertWorkerMove(purchase.row.status, changes.status, purchase.row.mode);
  const delay = Math.max(0, Math.round(parkDelayMs));
  const entered = await deps.transitions.enterWalletSender(
    purchase.fence,
    changes,
    {
      fromStatus: purchase.row.status,
      ...(reason !== undefined ? { event: { toStatus: changes.status ?? purchase.row.status, reason, data } } : {}),
    },
    walletLease,
    new Date(deps.now() + delay),
  );
  if (!entered.row) return { lease: entered.walletLease, lost: true };
  purchase.adopt(entered.row);
  return { lease: entered.walletLease, lost: false };
}

/**
 * Moves a signed batch's members to `sending` with the external that pays them, in one statement
 * that also extends the wallet lease until the external expires: recorded before anything is
 * broadcast. Each member adopts its new row; a lost fence raises LeaseLostError (nothing written).
 */
export async function persistSignedBatch(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  external: Omit<SignedExternalRow, 'createdAt'>,
  perMember: ReadonlyArray<{ evidence: Record<string, unknown>; eventData: unknown }>,
  reason: string,
  walletLease: HeldLease,
  walletLeaseUntilMs: number,
): Promise<void> {
  for (const member of members) assertWorkerMove(member.row.status, 'sending', member.row.mode);
  const rows = await deps.signedBatches.persist(
    external,
    members.map((member, index) => ({ fence: member.fence, fromStatus: member.row.status, ...perMember[index]! })),
    { stepStartedAt: new Date(deps.now()), reason },
    walletLease,
    walletLeaseUntilMs,
  );
  if (!rows) throw new LeaseLostError(members[0]!.row.id);
  rows.forEach((row, index) => members[index]!.adopt(row));
}

/** One fenced statement for members in one status and one mode; those whose fence held adopt their new rows. */
async function writeMembers(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  decision: PurchaseDecision,
): Promise<{ rows: PurchaseRow[]; lost?: HeldPurchase }> {
  const from = members[0]!.row.status;
  const mode = members[0]!.row.mode;
  if (members.some((member) => member.row.status !== from || member.row.mode !== mode))
    throw new TypeError('a batch write needs members in one status and one mode');
  // Before any write: a move the domain's lifecycle (of the members' mode) does not have is a bug, not an outcome.
  if (changes.status) assertWorkerMove(from, changes.status, mode);
  const rows = await deps.transitions.applyMany(
    members.map((member) => member.fence),
    changes,
    {
      release: decision.release,
      fromStatus: from,
      ...(decision.mergeEvidence ? { mergeEvidence: decision.mergeEvidence } : {}),
      ...(decision.reason !== undefined
        ? {
            event: {
              toStatus: changes.status ?? from,
              reason: decision.reason,
              data: decision.data,
              ...(decision.dataPerMember ? { dataPerRow: decision.dataPerMember } : {}),
            },
          }
        : {}),
    },
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const member of members) {
    const row = byId.get(member.row.id);
    if (row) member.adopt(row);
  }
  return { rows, lost: members.find((member) => !byId.has(member.row.id)) };
}
