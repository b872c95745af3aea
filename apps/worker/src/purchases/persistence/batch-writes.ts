import { assertWorkerMove } from '@starsgate/domain';
import type { PurchaseChanges, PurchaseRow } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from './held-purchase';
import { LeaseLostError } from './lease-lost-error';
import { enqueueNext } from './purchase-jobs';

export interface BatchWriteOptions {
  /** Recorded as one audit event per member. */
  reason?: string;
  data?: unknown;
  /** Each member's own event data, in member order (instead of `data`). */
  dataPerMember?: readonly unknown[];
  /** Keys merged into each member's own evidence. */
  mergeEvidence?: Record<string, unknown>;
}

/**
 * One fenced statement for many held purchases in the same status (a batch's members). Members
 * whose fence held adopt their new rows; returns those rows and the first member whose fence was lost.
 */
export async function writeAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  options: BatchWriteOptions & { release: boolean },
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
      release: options.release,
      fromStatus: from,
      ...(options.mergeEvidence ? { mergeEvidence: options.mergeEvidence } : {}),
      ...(options.reason !== undefined
        ? {
            event: {
              toStatus: changes.status ?? from,
              reason: options.reason,
              data: options.data,
              ...(options.dataPerMember ? { dataPerRow: options.dataPerMember } : {}),
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

/** `move` for many held purchases in one status: one statement; they stay held. */
export async function moveAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  reason: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const { lost } = await writeAll(deps, members, changes, { release: false, reason, data, ...options });
  if (lost) throw new LeaseLostError(lost.row.id);
}

/** `complete` for many held purchases in one status: one statement ends them all and destroys their secrets. */
export async function completeAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  reason: string,
  dataPerMember: readonly unknown[],
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const now = new Date(deps.now());
  const { lost } = await writeAll(
    deps,
    members,
    { status: 'completed', completedAt: now, stepStartedAt: now },
    { ...options, release: true, reason, dataPerMember },
  );
  if (lost) throw new LeaseLostError(lost.row.id);
}

/**
 * `reschedule` for many held purchases in one status: one fenced statement writes them all and
 * one Redis round trip enqueues their next jobs. Members whose fence held are written and
 * enqueued; if any fence was lost, LeaseLostError follows.
 */
export async function rescheduleAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  delayMs: number,
  changes: PurchaseChanges = {},
  reason?: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  if (members.length === 0) return;
  const delay = Math.max(0, Math.round(delayMs));
  const { rows, lost } = await writeAll(
    deps,
    members,
    { ...changes, nextRunAt: new Date(deps.now() + delay) },
    { release: true, reason, data, ...options },
  );
  await enqueueNext(deps, rows, delay);
  if (lost) throw new LeaseLostError(lost.row.id);
}
