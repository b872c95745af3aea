import type { PurchaseChanges } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from './held-purchase';
import { decide } from './purchase-decision';
import { applyDecision } from './purchase-writer';

export interface BatchWriteOptions {
  dataPerMember?: readonly unknown[];
  mergeEvidence?: Record<string, unknown>;
}

export async function moveAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  changes: PurchaseChanges,
  reason: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  await applyDecision(deps, members, decide.move(deps, null, changes, reason, data, options));
}

export async function completeAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  reason: string,
  dataPerMember: readonly unknown[],
  options: BatchWriteOptions = {},
): Promise<void> {
  await applyDecision(deps, members, decide.complete(deps, reason, dataPerMember, options));
}

export async function rescheduleAll(
  deps: StepDeps,
  members: readonly HeldPurchase[],
  delayMs: number,
  changes: PurchaseChanges = {},
  reason?: string,
  data?: unknown,
  options: BatchWriteOptions = {},
): Promise<void> {
  await applyDecision(deps, members, decide.reschedule(delayMs, changes, reason, data, options));
}
