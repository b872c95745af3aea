import { Address } from '@ton/core';
import { assertOperatorMove, errorBody, type PurchaseFailure } from '@starsgate/domain';
import { checkoutSinceLt, type AdminPurchaseReads, type PurchaseChanges, type PurchaseRow } from '@starsgate/db';
import {
  findPaymentTransaction,
  provePayment,
  scanForCheckoutPayment,
  type PaymentProof,
  type SendTransactionRequest,
  type TransactionScan,
} from '@starsgate/ton';
import { signedAfterLt } from '../purchases/chain/chain-lookup';
import { observeDelivery } from '../purchases/delivery/delivery-check';
import type { StepDeps } from '../purchases/step-deps';

export const EVIDENCE_COLLECTOR = 'evidence-collector';

/** What one look found, and whether it settles the case. */
interface Finding {
  /** Attached to the case's evidence under `collector`. */
  observed: Record<string, unknown>;
  settle?: { changes: PurchaseChanges; reason: string };
}

/** A conclusive failure: the error the purchase ends with, and why. */
function failedWith(failure: PurchaseFailure, reason: string): Finding['settle'] {
  return { changes: { status: 'failed', error: errorBody(failure) }, reason };
}

/** Cases looked at per pass. */
const CASES_PER_PASS = 50;

function lookUpPayment(deps: StepDeps, row: PurchaseRow): Promise<TransactionScan> {
  return findPaymentTransaction(deps.chain, {
    wallet: Address.parse(row.walletAddress!),
    normalizedHash: row.normalizedHash!,
    transactionHash: row.transactionHash,
    sinceLt: signedAfterLt(row),
  });
}

function expectedMessages(row: PurchaseRow): number {
  return (row.evidence as { batch?: { size?: number } } | null)?.batch?.size ?? 1;
}

/** Paid on chain: conclusive only once Fragment shows the order delivered. */
async function judgePaid(deps: StepDeps, row: PurchaseRow, proof: PaymentProof & { paid: true }): Promise<Finding> {
  const request = row.paymentRequest!;
  const txHash = proof.tx.hash().toString('hex');
  const chain = {
    paid: true,
    transaction_hash: txHash,
    ...(proof.jettonTx ? { jetton_transaction_hash: proof.jettonTx.hash().toString('hex') } : {}),
  };
  const delivery = await observeDelivery(deps, row, deps.fragment.session(request.fragmentSession), 0);
  const observed = { chain, fragment: { delivered: delivery.delivered, detail: delivery.detail } };
  if (!delivery.delivered) return { observed };
  return {
    observed,
    settle: {
      changes: { status: 'completed', transactionHash: txHash, transactionLt: proof.tx.lt.toString(), error: null },
      reason: `evidence collector: paid on chain (${txHash}) and Fragment's ${delivery.via === 'state_done' ? 'status' : 'history'} shows this order delivered (${delivery.via})`,
    },
  };
}

/** Not found on chain: conclusive only as proof of non-execution (expired, seqno used or unchanged). */
async function judgeUnseen(deps: StepDeps, row: PurchaseRow): Promise<Finding> {
  const margin = deps.config.validUntilMarginMs;
  if (row.validUntil === null || deps.now() <= row.validUntil * 1000 + margin)
    return { observed: { chain: { found: false, note: 'the signed message may still land' } } };
  const seqno = await deps.chain.getSeqno(Address.parse(row.walletAddress!));
  // Read the seqno first, then look again: a landing between the two reads is then seen.
  const again = await lookUpPayment(deps, row);
  if (again.outcome === 'found') return { observed: { chain: { found: true, note: 'landed meanwhile' } } };
  if (again.outcome === 'inconclusive') return { observed: inconclusive(again) };
  const observed = { chain: { found: false, seqno_now: seqno, seqno_signed: row.seqno, valid_until: row.validUntil } };
  if (seqno < row.seqno!) return { observed };
  return {
    observed,
    settle: failedWith(
      {
        code: 'NOT_EXECUTED',
        message: `The signed transaction expired at ${new Date(row.validUntil * 1000).toISOString()} without executing; nothing left the wallet.`,
      },
      `evidence collector: expired unexecuted (valid_until passed, wallet seqno ${seqno} ${seqno > row.seqno! ? 'moved past' : 'still at'} the signed ${row.seqno}, message absent)`,
    ),
  };
}

function inconclusive(scan: TransactionScan & { outcome: 'inconclusive' }): Record<string, unknown> {
  return {
    chain: {
      found: false,
      note: `the payer wallet's history could not be read back to the signing: ${scan.reason}`,
      scanned_down_to_lt: scan.scannedDownToLt,
    },
  };
}

/**
 * A checkout that reached reconciliation before a BOC was accepted: the buyer's wallet may still
 * have signed and broadcast it. Its externals since the checkout started are judged with the BOC
 * verifier; what the scan found is recorded, never settled here (the operator decides).
 */
async function examineUnsubmittedCheckout(deps: StepDeps, row: PurchaseRow): Promise<Finding> {
  const transaction = row.checkoutTransaction as SendTransactionRequest;
  const scan = await scanForCheckoutPayment(deps.chain, transaction, {
    network: deps.config.network,
    sinceLt: checkoutSinceLt(row),
  });
  if (scan.outcome === 'found')
    return {
      observed: {
        chain: {
          found: true,
          transaction_hash: scan.payment.tx.hash().toString('hex'),
          normalized_hash: scan.payment.verified.normalizedHash,
          note: "the buyer's wallet signed and broadcast this checkout's transaction",
        },
      },
    };
  const mayLand = deps.now() <= transaction.validUntil * 1000 + deps.config.validUntilMarginMs;
  const note =
    scan.outcome === 'incomplete'
      ? `the payer wallet's history could not be read back to the checkout's start: ${scan.reason}`
      : mayLand
        ? 'no payment yet, but the buyer can still sign until valid_until'
        : 'no payment for this checkout among the payer wallet transactions since it started';
  return { observed: { chain: { found: false, scanned: scan.scanned, note } } };
}

async function examine(deps: StepDeps, row: PurchaseRow): Promise<Finding> {
  const request = row.paymentRequest;
  if (request && row.walletAddress && !row.normalizedHash && row.checkoutTransaction)
    return examineUnsubmittedCheckout(deps, row);
  if (!request || !row.walletAddress || !row.normalizedHash)
    return { observed: { note: 'nothing was signed for this purchase: no chain evidence to gather' } };
  const scan = await lookUpPayment(deps, row);
  if (scan.outcome === 'inconclusive') return { observed: inconclusive(scan) };
  if (scan.outcome === 'absent') return judgeUnseen(deps, row);
  const { tx } = scan;
  const proof = await provePayment(deps.chain, tx, request, expectedMessages(row));
  if (proof.paid) return judgePaid(deps, row, proof);
  const txHash = tx.hash().toString('hex');
  const observed = { chain: { paid: false, transaction_hash: txHash, mismatches: proof.mismatches } };
  if (proof.mismatches.some((mismatch) => mismatch.pending)) return { observed };
  return {
    observed,
    settle: failedWith(
      {
        code: 'TRANSACTION_FAILED',
        message: `The wallet transaction executed but did not pay this purchase: ${proof.mismatches.map((m) => m.message).join('; ')}.`,
        details: [{ transaction_hash: txHash }],
      },
      `evidence collector: transaction ${txHash} executed without paying this purchase`,
    ),
  };
}

/**
 * Re-checks open reconciliation cases: the payer wallet's transactions (by the recorded hash or the
 * normalized hash of the signed message), the payment judged as the confirm step judges it, and
 * Fragment's delivery signals. What it finds is attached to the case (`evidence.collector`); it
 * settles a case itself only on conclusive evidence (paid and delivered; executed without paying;
 * expired unexecuted), through the same fenced transition as any step, with the reason recorded.
 */
export async function collectEvidence(
  deps: StepDeps,
  reads: AdminPurchaseReads,
): Promise<{ checked: number; settled: number }> {
  let settled = 0;
  const cases = await reads.reconciliationCases(CASES_PER_PASS);
  for (const row of cases) {
    const checkedAt = new Date(deps.now());
    let finding: Finding;
    try {
      finding = await examine(deps, row);
    } catch (error) {
      finding = { observed: { error: (error as Error).message } };
    }
    const collector = { checked_at: checkedAt.toISOString(), ...finding.observed };
    // The collector settles a case on an operator's terms: only along the lifecycle's operator moves.
    if (finding.settle) assertOperatorMove(row.status, finding.settle.changes.status!, row.mode);
    const written = await deps.transitions.applyUnheld(
      { id: row.id, version: row.version },
      EVIDENCE_COLLECTOR,
      finding.settle ? { ...finding.settle.changes, completedAt: checkedAt, stepStartedAt: checkedAt } : {},
      {
        fromStatus: row.status,
        mergeEvidence: { collector },
        ...(finding.settle
          ? { event: { toStatus: finding.settle.changes.status!, reason: finding.settle.reason, data: collector } }
          : {}),
      },
    );
    if (written && finding.settle) {
      settled += 1;
      deps.logger.info('reconciliation case settled by the evidence collector', {
        purchase_id: row.id,
        status: finding.settle.changes.status,
        reason: finding.settle.reason,
      });
    }
  }
  return { checked: cases.length, settled };
}
