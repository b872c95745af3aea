import { Address, beginCell, Cell, storeMessage, type Message, type Transaction } from '@ton/core';
import type { PaymentRequest } from '@starsgate/domain';
import type { ChainClient, TransactionScan } from '../chain/chain-client';
import { judgeJettonTransfer, judgeWalletTransaction } from './judge-outcome';

/**
 * What a Fragment request asks the payer wallet to send: the parts of the stored `payment_request`
 * a proof reads (the one internal message; for USDT, the payer's jetton wallet and the query id).
 */
export type RequestedPayment = Pick<PaymentRequest, 'message'> & {
  jetton?: Pick<NonNullable<PaymentRequest['jetton']>, 'jettonWallet' | 'queryId'>;
};

export interface PaymentMismatch {
  field: string;
  message: string;
  /** Not yet decidable (a trace not indexed yet): not proof that the payment failed. */
  pending?: true;
}

export type PaymentProof =
  { paid: true; tx: Transaction; jettonTx?: Transaction } | { paid: false; mismatches: PaymentMismatch[] };

function payloadCell(payment: RequestedPayment): Cell | undefined {
  return Cell.fromBoc(Buffer.from(payment.message.payload, 'base64url'))[0];
}

/** This payment's own out-message in a (possibly batched) wallet transaction: right receiver, amount and payload. */
export function findPaymentMessage(tx: Transaction, payment: RequestedPayment): Message | undefined {
  const destination = Address.parse(payment.message.address);
  const payload = payloadCell(payment);
  return [...tx.outMessages.values()].find(
    (m) =>
      m.info.type === 'internal' &&
      m.info.dest.equals(destination) &&
      m.info.value.coins === BigInt(payment.message.amount) &&
      !!payload &&
      m.body.hash().equals(payload.hash()),
  );
}

/** Why no out-message of `tx` is this payment: the closest message's first difference. */
function explainMissing(tx: Transaction, payment: RequestedPayment): PaymentMismatch[] {
  const internals = [...tx.outMessages.values()].filter((m) => m.info.type === 'internal');
  const destination = Address.parse(payment.message.address);
  const toReceiver = internals.filter((m) => m.info.type === 'internal' && m.info.dest.equals(destination));
  if (toReceiver.length === 0)
    return [
      {
        field: 'receiver',
        message: `no message to ${destination.toRawString()}; sent to ${internals.map((m) => (m.info.type === 'internal' ? m.info.dest.toRawString() : '')).join(', ') || 'nobody'}`,
      },
    ];
  const amount = BigInt(payment.message.amount);
  const rightAmount = toReceiver.filter((m) => m.info.type === 'internal' && m.info.value.coins === amount);
  if (rightAmount.length === 0)
    return [
      {
        field: 'amount',
        message: `sent ${toReceiver.map((m) => (m.info.type === 'internal' ? m.info.value.coins.toString() : '')).join(', ')} nanoGRAM, requested ${amount}`,
      },
    ];
  return [{ field: 'payload', message: "the message's payload is not the one Fragment asked for" }];
}

function messageHash(message: Message): string {
  return beginCell().store(storeMessage(message)).endCell().hash().toString('hex');
}

/**
 * The payer wallet's transaction with this hash (hex): its history after `sinceLt` (the wallet's
 * last lt before the payment was signed, when known), newest first, up to `limit` transactions.
 */
export async function findWalletTransaction(
  chain: ChainClient,
  wallet: Address,
  hashHex: string,
  options: { sinceLt?: bigint; limit?: number } = {},
): Promise<Transaction | null> {
  const history = await chain.getTransactions(wallet, { limit: options.limit ?? 1000, afterLt: options.sinceLt });
  return history.find((tx) => tx.hash().toString('hex') === hashHex.toLowerCase()) ?? null;
}

/**
 * The payer wallet's transaction of a signed payment: by its recorded hash once known, otherwise
 * (or when that transaction is no longer among the wallet's newest page) by the normalized hash of
 * the signed external (TEP-467), paged back to `sinceLt` when given.
 */
export async function findPaymentTransaction(
  chain: ChainClient,
  signed: { wallet: Address; normalizedHash: string; transactionHash?: string | null; sinceLt?: bigint },
): Promise<TransactionScan> {
  const { wallet, sinceLt } = signed;
  // A busy wallet buries its payment under newer transactions (found by `npm run chaos`: a paid
  // and delivered purchase was settled `failed` as "message absent"), so a miss by hash is
  // looked up again through the paged scan.
  const byHash = signed.transactionHash
    ? await findWalletTransaction(chain, wallet, signed.transactionHash, { sinceLt })
    : null;
  if (byHash) return { outcome: 'found', tx: byHash };
  return chain.findTransactionByNormalizedHash(wallet, signed.normalizedHash, sinceLt !== undefined ? { sinceLt } : {});
}

/**
 * Whether `tx` (a payer wallet transaction) paid this request: the wallet transaction executed
 * and sent exactly `expectedMessages` messages, one of them this payment's; for USDT also the
 * jetton wallet's transfer succeeded. The judges of the worker's confirm step, reused.
 */
export async function provePayment(
  chain: ChainClient,
  tx: Transaction,
  payment: RequestedPayment,
  expectedMessages: number,
): Promise<PaymentProof> {
  const own = findPaymentMessage(tx, payment);
  if (!own) return { paid: false, mismatches: explainMissing(tx, payment) };
  const verdict = judgeWalletTransaction(tx, expectedMessages);
  if (!verdict.ok) return { paid: false, mismatches: [{ field: 'transaction', message: verdict.detail }] };
  if (!payment.jetton) return { paid: true, tx };
  const jettonTx = await chain.findTransactionByInMessageHash(
    Address.parse(payment.jetton.jettonWallet),
    messageHash(own),
  );
  if (!jettonTx)
    return {
      paid: false,
      mismatches: [{ field: 'jetton_transfer', message: 'the jetton wallet transaction is not found', pending: true }],
    };
  const jettonVerdict = judgeJettonTransfer({
    payerJettonWalletTx: jettonTx,
    expectedQueryId: BigInt(payment.jetton.queryId),
  });
  if (!jettonVerdict.ok)
    return { paid: false, mismatches: [{ field: 'jetton_transfer', message: jettonVerdict.detail }] };
  return { paid: true, tx, jettonTx };
}
