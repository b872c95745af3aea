import { createHash } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import type { FragmentTransactionMessage } from '@starsgate/fragment';
import { buildJettonTransferBody, parseJettonTransferBody } from '@starsgate/ton';

export interface PayerJettonTransfer {
  /** The message the payer signs: to its own jetton wallet, the same transfer with its own response and query id. */
  message: FragmentTransactionMessage;
  /** Fragment's message as it was returned (kept with the payment request for the audit trail). */
  fragmentMessage: FragmentTransactionMessage;
}

/**
 * A USDT payment is a TEP-74 `transfer` sent to the sender's own jetton wallet: a message Fragment
 * aimed at another wallet's jetton wallet (the one linked to the Fragment account, when
 * `transaction.from` names it) can only be sent by that wallet. The payer sends the same transfer
 * through its own jetton wallet instead: same destination owner, jetton amount, forward GRAM and
 * forward payload (the `Ref#` comment cell, bit for bit and in the same place), the payer as
 * response destination, our own query id (docs/fragment-protocol.md §17).
 *
 * Returns null when there is nothing to rebuild (the message already goes to the payer's jetton
 * wallet) or nothing that can be rebuilt (not a jetton transfer, a custom payload we cannot carry
 * over): the policy then judges Fragment's message as it is.
 */
export function throughPayerJettonWallet(
  message: FragmentTransactionMessage,
  payer: Address,
  payerJettonWallet: Address,
  queryId: bigint,
): PayerJettonTransfer | null {
  let target: Address;
  let body: Cell;
  try {
    target = Address.parse(message.address);
    if (message.payload === undefined) return null;
    [body] = Cell.fromBoc(Buffer.from(message.payload, 'base64url')) as [Cell];
  } catch {
    return null;
  }
  if (target.equals(payerJettonWallet) || message.stateInit !== undefined) return null;
  let transfer: ReturnType<typeof parseJettonTransferBody>;
  try {
    transfer = parseJettonTransferBody(body);
  } catch {
    return null;
  }
  if (!transfer.destination || !transfer.forwardPayload || transfer.customPayload) return null;
  const rebuilt = buildJettonTransferBody({
    queryId,
    amount: transfer.amount,
    destination: transfer.destination,
    responseDestination: payer,
    forwardTonAmount: transfer.forwardTonAmount,
    forwardPayload: transfer.forwardPayload,
    forwardPayloadInRef: transfer.forwardPayloadInRef,
  });
  return {
    message: {
      address: payerJettonWallet.toRawString(),
      amount: message.amount,
      payload: rebuilt.toBoc().toString('base64url'),
    },
    fragmentMessage: message,
  };
}

/** Our query id of a rebuilt transfer: a stable function of the purchase, so a retried prepare builds the same bytes. */
export function ownQueryId(purchaseId: string): bigint {
  return createHash('sha256').update(`starsgate:jetton-query:${purchaseId}`).digest().readBigUInt64BE(0);
}
