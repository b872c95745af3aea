import { Address, type Transaction } from '@ton/core';
import type { TransactionScan } from '@starsgate/ton';
import type { PurchaseRow } from '@starsgate/db';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';

/** The wallet's last transaction lt read before the external was signed: ours can only come later. */
export function signedAfterLt(row: PurchaseRow): bigint | undefined {
  const batch = (row.evidence as { batch?: { since_lt?: string } } | null)?.batch;
  return batch?.since_lt !== undefined ? BigInt(batch.since_lt) : undefined;
}

/**
 * This purchase's wallet transaction by the normalized hash of its external, scanning only after
 * `signedAfterLt`: found, absent, or inconclusive (never read as absent: docs/purchase-safety.md).
 */
export function findOwnTransaction(deps: StepDeps, row: PurchaseRow): Promise<TransactionScan> {
  const sinceLt = signedAfterLt(row);
  return deps.chain.findTransactionByNormalizedHash(
    Address.parse(row.walletAddress!),
    row.normalizedHash!,
    sinceLt !== undefined ? { sinceLt } : {},
  );
}

/**
 * For polling only: every member of a batch shares one external, so one lookup at most half a
 * poll interval old answers all of them. Never for judging expiry, which needs a lookup made after
 * its own seqno read (judgeUnseen).
 */
export function pollOwnTransaction(
  deps: StepDeps,
  row: PurchaseRow,
  maxAgeMs = Math.max(50, deps.config.pollIntervalMs / 2),
): Promise<TransactionScan> {
  return sharedCall(deps.chain, `tx:${row.normalizedHash}`, { now: deps.now(), maxAgeMs }, () =>
    findOwnTransaction(deps, row),
  );
}

/** Looks for a just-broadcast external's transaction every FAST_POLL_MS from `fromMs` until `untilMs`. */
export async function watchForLanding(
  deps: StepDeps,
  row: PurchaseRow,
  fromMs: number,
  untilMs: number,
): Promise<Transaction | null> {
  const { fastPollMs } = deps.config;
  await deps.sleep(fromMs - deps.now());
  for (;;) {
    const scan = await pollOwnTransaction(deps, row, fastPollMs / 2);
    const tx = scan.outcome === 'found' ? scan.tx : null;
    if (tx || deps.now() + fastPollMs > untilMs) return tx;
    await deps.sleep(fastPollMs);
  }
}
