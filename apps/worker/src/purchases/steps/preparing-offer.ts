import { Address } from '@ton/core';
import { buildSendTransactionRequest, TONCONNECT_MAX_VALIDITY_SECONDS } from '@starsgate/ton';
import type { HeldPurchase } from '../persistence/held-purchase';
import { decide } from '../persistence/purchase-decision';
import { applyDecision } from '../persistence/purchase-writer';
import { payloadCell } from '../policy/payment-request';
import type { StepDeps } from '../step-deps';
import type { AcceptedRequest } from '../wallet/wallet-sender';

/**
 * The end of `preparing` for a checkout: the payment request Fragment made (accepted by the policy
 * and the funds check) becomes the TON Connect transaction the buyer signs, valid until Fragment's
 * deadline and at most TON Connect's 5 minutes. The checkout then waits for the signed BOC, and
 * its own jobs watch the payer's account meanwhile.
 */
export async function offerToBuyer(
  deps: StepDeps,
  purchase: HeldPurchase,
  accepted: AcceptedRequest,
  payer: { lastLt: bigint; seqno: number },
): Promise<void> {
  const request = accepted.changes.paymentRequest!;
  const now = Math.floor(deps.now() / 1000);
  const validUntil = Math.min(request.validUntil, now + TONCONNECT_MAX_VALIDITY_SECONDS);
  const transaction = buildSendTransactionRequest({
    network: deps.config.network,
    from: Address.parseRaw(accepted.changes.walletAddress!),
    validUntil,
    now,
    messages: [
      {
        to: Address.parse(request.message.address),
        // A jetton wallet is a contract (bounceable); Fragment's receiving address is paid as the server-signed path pays it.
        bounce: request.jetton !== undefined,
        amount: BigInt(request.message.amount),
        payload: payloadCell(request.message.payload),
      },
    ],
  });
  await applyDecision(
    deps,
    purchase,
    decide.reschedule(
      deps.config.pollIntervalMs,
      {
        ...accepted.changes,
        status: 'awaiting_signature',
        checkoutTransaction: transaction,
        validUntil,
        evidence: purchase.evidenceWith({ checkout: { since_lt: payer.lastLt.toString(), seqno: payer.seqno } }),
      },
      'transaction prepared; waiting for the buyer to sign',
      { ...(accepted.data as object), valid_until: validUntil },
    ),
  );
}
