import { Address } from '@ton/core';
import { ChainRequestError } from '@starsgate/ton';
import type { HeldPurchase } from '../persistence/held-purchase';
import type { StepDeps } from '../step-deps';
import { releaseWallet } from '../wallet/wallet-lease';
import { findOwnTransaction } from './chain-lookup';
import { broadcastExternal, signedBocOf } from './signed-external';

/**
 * Broadcasts the persisted BOC again. Only ever these bytes: identical bytes are idempotent on
 * chain (same seqno), a new signature never is. Returns whether the provider accepted it.
 */
export async function rebroadcast(deps: StepDeps, purchase: HeldPurchase): Promise<{ ok: boolean; error?: string }> {
  const boc = await signedBocOf(deps, purchase.row);
  try {
    await broadcastExternal(deps, purchase.row.batchId!, boc);
    return { ok: true };
  } catch (error) {
    // A refusal (e.g. seqno already used because it landed) is judged by the lookup, not here.
    return {
      ok: false,
      error: `${error instanceof ChainRequestError ? 'rejected' : 'unavailable'}: ${(error as Error).message}`,
    };
  }
}

/**
 * The signed external is not (yet) seen on chain. Before `valid_until` it can still land: keep
 * rebroadcasting the same bytes. After `valid_until` + margin it provably cannot land (the wallet
 * rejects an expired message), so: seqno past ours or unchanged without our message, the history
 * read down to the signing point → NOT_EXECUTED; a scan that stopped short of it, or a chain that
 * cannot answer past the step's maximum age → reconciliation_required.
 */
export async function handleUnseen(deps: StepDeps, purchase: HeldPurchase, stepMaxAgeMs: number): Promise<void> {
  const row = purchase.row;
  const nowMs = deps.now();
  const validUntilMs = row.validUntil! * 1000;
  if (nowMs <= validUntilMs) {
    await rebroadcast(deps, purchase);
    await purchase.reschedule(deps.config.pollIntervalMs);
    return;
  }
  if (nowMs <= validUntilMs + deps.config.validUntilMarginMs) {
    await purchase.reschedule(
      Math.min(deps.config.pollIntervalMs, validUntilMs + deps.config.validUntilMarginMs - nowMs + 1),
    );
    return;
  }
  const wallet = Address.parse(row.walletAddress!);
  try {
    const seqno = await deps.chain.getSeqno(wallet);
    // Read the seqno first, then look again: a landing between the two reads is then seen.
    const landed = await findOwnTransaction(deps, row);
    if (landed.outcome === 'found') {
      await purchase.reschedule(0);
      return;
    }
    // A scan that stopped before the signing point proves nothing: the payment may be buried under newer transactions.
    if (landed.outcome === 'inconclusive') {
      await purchase.reconcile(
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
      );
      return;
    }
    if (seqno < row.seqno!) {
      await purchase.reconcile(
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
      );
      return;
    }
    await purchase.fail(
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
    await releaseWallet(deps, purchase);
  } catch (error) {
    if (nowMs - row.stepStartedAt.getTime() > stepMaxAgeMs) {
      await purchase.reconcile(
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
      );
      return;
    }
    await purchase.retry('chain lookup failed after expiry', { error: (error as Error).message });
  }
}
