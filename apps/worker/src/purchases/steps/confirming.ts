import { Address, beginCell, storeMessage, type Message, type Transaction } from '@ton/core';
import { findPaymentMessage, judgeJettonTransfer } from '@starsgate/ton';
import { pollOwnTransaction } from '../chain/chain-lookup';
import { landingEstimate } from '../chain/landing-estimate';
import { handleUnseen } from '../chain/unseen-external';
import { crashAt } from '../crash-points';
import {
  adoptBatchSiblings,
  failUnpaid,
  settleDeliveries,
  settlePaidBatch,
  type ChainEvidence,
} from '../delivery/batch-settlement';
import type { HeldPurchase } from '../persistence/held-purchase';
import type { StepDeps } from '../step-deps';
import { releaseWallet } from '../wallet/wallet-lease';

/**
 * `confirming`, for members whose payment this job just recorded (`submitted` hands them on in
 * the same job): they wait for Fragment to report their orders delivered.
 */
export async function awaitDeliveries(deps: StepDeps, paid: readonly HeldPurchase[]): Promise<void> {
  await settleDeliveries(deps, paid);
}

function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
}

/**
 * `confirming`: find the wallet transaction by the normalized hash, judge this purchase's own
 * message (and for USDT its jetton transfer), then wait for Fragment to report the order done.
 * A GRAM purchase settles, with its transaction, the other members of its batch that nobody holds
 * (settlePaidBatch, settleDeliveries): one job and a few statements for the whole batch.
 * Money that left but was never delivered by the deadline → reconciliation_required, never a repay.
 */
export async function confirmingStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  crashAt(deps.config, 'during_confirming');
  const row = purchase.row;
  const request = row.paymentRequest!;
  const { config } = deps;
  const age = deps.now() - row.stepStartedAt.getTime();
  const evidence = (row.evidence as Record<string, unknown> | null) ?? {};
  if (evidence.chain) {
    await settleDeliveries(
      deps,
      request.jetton ? [purchase] : [purchase, ...(await adoptBatchSiblings(deps, purchase, true))],
    );
    return;
  }

  let tx: Transaction | null;
  try {
    const scan = await pollOwnTransaction(deps, row);
    // Not found (absent or inconclusive): handleUnseen judges it with its own fresh lookup.
    tx = scan.outcome === 'found' ? scan.tx : null;
  } catch (error) {
    if (age > config.maxAges.confirmingMs) {
      await purchase.reconcile(
        { code: 'OUTCOME_UNKNOWN' },
        { lookup_error: (error as Error).message, normalized_hash: row.normalizedHash },
        'the chain could not be asked before the deadline',
      );
      return;
    }
    await purchase.retry('chain lookup failed', { error: (error as Error).message });
    return;
  }
  if (!tx) {
    await handleUnseen(deps, purchase, config.maxAges.confirmingMs);
    return;
  }
  landingEstimate(deps).found(row.batchId!, deps.now());
  await releaseWallet(deps, purchase);
  if (!request.jetton) {
    const paid = await settlePaidBatch(deps, [purchase, ...(await adoptBatchSiblings(deps, purchase, false))], tx);
    await settleDeliveries(deps, paid);
    return;
  }

  const txHash = tx.hash().toString('hex');
  const own = findPaymentMessage(tx, request);
  if (!own) {
    await failUnpaid(purchase, tx);
    return;
  }
  const chainEvidence: ChainEvidence = { tx_hash: txHash, lt: tx.lt.toString() };
  const jettonTx = await deps.chain
    .findTransactionByInMessageHash(Address.parse(request.jetton.jettonWallet), messageHash(own))
    .catch(() => null);
  if (!jettonTx) {
    if (age > config.maxAges.confirmingMs) {
      await purchase.reconcile(
        {
          code: 'OUTCOME_UNKNOWN',
          message: 'The GRAM message left the wallet but the jetton transfer was not found before the deadline.',
        },
        { chain: chainEvidence },
        'jetton trace not found',
      );
      return;
    }
    // Its transaction is found: the chain watch has nothing more to look for.
    const { landing_wait: _parked, ...rest } = evidence;
    await purchase.reschedule(config.pollIntervalMs, _parked ? { evidence: rest } : {});
    return;
  }
  const verdict = judgeJettonTransfer({
    payerJettonWalletTx: jettonTx,
    expectedQueryId: BigInt(request.jetton.queryId),
  });
  if (!verdict.ok) {
    await purchase.fail(
      {
        code: 'TRANSACTION_FAILED',
        message: `The USDT transfer failed: ${verdict.detail}.`,
        details: [{ reason: verdict.reason, transaction_hash: txHash }],
      },
      'jetton transfer failed',
      { transaction_hash: txHash, jetton_transaction_hash: jettonTx.hash().toString('hex') },
    );
    return;
  }
  chainEvidence.jetton_tx_hash = jettonTx.hash().toString('hex');
  // The wallet sent exactly Fragment's request (findPaymentMessage) and the jetton transfer executed.
  chainEvidence.settled = true;
  await purchase.move(
    {
      transactionHash: txHash,
      transactionLt: chainEvidence.lt,
      evidence: purchase.evidenceWith({ chain: chainEvidence }),
    },
    'payment found on chain',
    chainEvidence,
  );
  await settleDeliveries(deps, [purchase]);
}
