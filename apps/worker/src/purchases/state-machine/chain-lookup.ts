import { Address, type Transaction } from '@ton/core';
import type { PurchaseRow } from '@starsgate/db';
import type { StepDeps } from './step-deps';

/** The wallet's last transaction lt read before the external was signed: ours can only come later. */
export function signedAfterLt(row: PurchaseRow): bigint | undefined {
  const batch = (row.evidence as { batch?: { since_lt?: string } } | null)?.batch;
  return batch?.since_lt !== undefined ? BigInt(batch.since_lt) : undefined;
}

/** This purchase's wallet transaction by the normalized hash of its external, scanning only after `signedAfterLt`. */
export function findOwnTransaction(deps: StepDeps, row: PurchaseRow): Promise<Transaction | null> {
  const sinceLt = signedAfterLt(row);
  return deps.chain.findTransactionByNormalizedHash(Address.parse(row.walletAddress!), row.normalizedHash!, sinceLt !== undefined ? { sinceLt } : {});
}

interface Lookup {
  startedAt: number;
  result: Promise<Transaction | null>;
}

const recentLookups = new Map<string, Lookup>();

/**
 * For polling only: every member of a batch shares one external, so one lookup at most
 * `maxAgeMs` old answers all of them in this process. Never for judging expiry, which needs a
 * lookup made after its own seqno read (handleUnseen).
 */
export function pollOwnTransaction(deps: StepDeps, row: PurchaseRow): Promise<Transaction | null> {
  const now = deps.now();
  const maxAgeMs = Math.max(50, deps.config.pollIntervalMs / 2);
  const key = row.normalizedHash!;
  const cached = recentLookups.get(key);
  if (cached && now - cached.startedAt <= maxAgeMs) return cached.result;
  if (recentLookups.size > 1_000) {
    for (const [hash, lookup] of recentLookups) if (now - lookup.startedAt > maxAgeMs) recentLookups.delete(hash);
  }
  const result = findOwnTransaction(deps, row);
  recentLookups.set(key, { startedAt: now, result });
  // A failed lookup is not shared: the next poll asks again.
  result.catch(() => recentLookups.get(key)?.result === result && recentLookups.delete(key));
  return result;
}
