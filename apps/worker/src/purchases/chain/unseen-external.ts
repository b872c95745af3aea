import { Address } from '@ton/core';
import type { PurchaseRow } from '@starsgate/db';
import { ChainRequestError } from '@starsgate/ton';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide, type PurchaseDecision } from '../persistence/purchase-decision';
import type { StepDeps } from '../step-deps';
import { findOwnTransaction } from './chain-lookup';
import { broadcastExternal, signedBocOf } from './signed-external';

/**
 * Broadcasts the persisted BOC again. Only ever these bytes: identical bytes are idempotent on
 * chain (same seqno), a new signature never is. Returns whether the provider accepted it.
 */
export async function rebroadcast(deps: StepDeps, row: PurchaseRow): Promise<{ ok: boolean; error?: string }> {
  const boc = await signedBocOf(deps, row);
  try {
    await broadcastExternal(deps, row.batchId!, boc);
    return { ok: true };
  } catch (error) {
    // A refusal (e.g. seqno already used because it landed) is judged by the lookup, not here.
    return {
      ok: false,
      error: `${error instanceof ChainRequestError ? 'rejected' : 'unavailable'}: ${(error as Error).message}`,
    };
  }
}

/** A parked purchase's own job runs this long after valid_until plus the margin, so the expiry can be judged. */
const EXPIRY_SLACK_MS = 50;

/**
 * Parks a purchase whose external the chain does not show yet (one write, then the chain watch is
 * told): due when its expiry can be judged, valid_until plus the margin. Until then the chain watch (chain-watch.ts) rebroadcasts
 * the same bytes every poll interval, as the purchase's own polls did, and wakes it when one look
 * at its wallet finds the transaction. Without the watch (lost with its leader, a Redis flush) the
 * deadline job still judges it: an external not rebroadcast can only fail to land, never land twice.
 */
function parkForLanding(deps: StepDeps, purchase: HeldPurchase, nowMs: number): UnseenVerdict {
  const row = purchase.row;
  const dueInMs = row.validUntil! * 1000 + deps.config.validUntilMarginMs - nowMs + EXPIRY_SLACK_MS;
  const evidence = row.evidence as Record<string, unknown> | null;
  return {
    decision: decide.reschedule(
      dueInMs,
      evidence?.landing_wait
        ? {}
        : { evidence: purchase.evidenceWith({ landing_wait: { parked_at: new Date(nowMs).toISOString() } }) },
      evidence?.landing_wait ? undefined : 'not on chain yet; parked for the chain watch until it expires',
    ),
    then: 'tell_chain_watch',
  };
}

/**
 * What a step does with a purchase whose external the chain does not show: the decision, then (once
 * it is written) tell the chain watch a purchase waits, or free the wallet of a batch proven not executed.
 */
export interface UnseenVerdict {
  decision: PurchaseDecision;
  then?: 'tell_chain_watch' | 'release_wallet';
}

/**
 * The signed external is not (yet) seen on chain. Before `valid_until` it can still land: keep
 * rebroadcasting the same bytes. After `valid_until` + margin it provably cannot land (the wallet
 * rejects an expired message), so: seqno past ours or unchanged without our message, the history
 * read down to the signing point → NOT_EXECUTED; a scan that stopped short of it, or a chain that
 * cannot answer past the step's maximum age → reconciliation_required. Only the rebroadcast is done
 * here; the step applies the verdict.
 */
export async function judgeUnseen(
  deps: StepDeps,
  purchase: HeldPurchase,
  stepMaxAgeMs: number,
): Promise<UnseenVerdict> {
  const row = purchase.row;
  const nowMs = deps.now();
  const validUntilMs = row.validUntil! * 1000;
  if (nowMs <= validUntilMs) {
    await rebroadcast(deps, row);
    if (deps.chainWatch) return parkForLanding(deps, purchase, nowMs);
    return { decision: decide.reschedule(deps.config.pollIntervalMs) };
  }
  if (nowMs <= validUntilMs + deps.config.validUntilMarginMs) {
    if (deps.chainWatch) return parkForLanding(deps, purchase, nowMs);
    return {
      decision: decide.reschedule(
        Math.min(deps.config.pollIntervalMs, validUntilMs + deps.config.validUntilMarginMs - nowMs + 1),
      ),
    };
  }
  const wallet = Address.parse(row.walletAddress!);
  try {
    const seqno = await deps.chain.getSeqno(wallet);
    // Read the seqno first, then look again: a landing between the two reads is then seen.
    const landed = await findOwnTransaction(deps, row);
    if (landed.outcome === 'found') return { decision: decide.reschedule(0) };
    // A scan that stopped before the signing point proves nothing: the payment may be buried under newer transactions.
    if (landed.outcome === 'inconclusive') {
      return {
        decision: decide.reconcile(
          deps,
          row,
          {
            code: 'OUTCOME_UNKNOWN',
            message: `The signed transaction expired, but the wallet's history could not be read back to its signing (${landed.reason}): whether it executed is unknown.`,
          },
          {
            expiry_check: {
              scan: 'inconclusive',
              scan_reason: landed.reason,
              scanned_down_to_lt: landed.scannedDownToLt,
              seqno_now: seqno,
              seqno_signed: row.seqno,
              normalized_hash: row.normalizedHash,
              valid_until: row.validUntil,
            },
          },
          'expired; the scan for our message was inconclusive',
        ),
      };
    }
    if (seqno < row.seqno!) {
      return {
        decision: decide.reconcile(
          deps,
          row,
          {
            code: 'OUTCOME_UNKNOWN',
            message: `The wallet seqno ${seqno} is below the signed seqno ${row.seqno}: the chain view is inconsistent.`,
          },
          {
            expiry_check: {
              seqno_now: seqno,
              seqno_signed: row.seqno,
              normalized_hash: row.normalizedHash,
              valid_until: row.validUntil,
            },
          },
          'expired, seqno below ours',
        ),
      };
    }
    const decision = decide.fail(
      deps,
      {
        code: 'NOT_EXECUTED',
        message: `The signed transaction expired at ${new Date(validUntilMs).toISOString()} without executing; nothing left the wallet.`,
        details: [
          {
            normalized_hash: row.normalizedHash,
            seqno_signed: row.seqno,
            seqno_now: seqno,
            valid_until: row.validUntil,
          },
        ],
      },
      seqno > row.seqno!
        ? 'expired; the wallet seqno moved past ours without our message'
        : 'expired; the wallet seqno never moved',
    );
    return { decision, then: 'release_wallet' };
  } catch (error) {
    if (nowMs - row.stepStartedAt.getTime() > stepMaxAgeMs) {
      return {
        decision: decide.reconcile(
          deps,
          row,
          { code: 'OUTCOME_UNKNOWN' },
          {
            expiry_check: {
              error: (error as Error).message,
              normalized_hash: row.normalizedHash,
              seqno_signed: row.seqno,
              valid_until: row.validUntil,
            },
          },
          'the chain could not answer after the signed message expired',
        ),
      };
    }
    return {
      decision: decide.retry(deps, row, 'chain lookup failed after expiry', { error: (error as Error).message }),
    };
  }
}
