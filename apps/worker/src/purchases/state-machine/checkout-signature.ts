import { randomUUID } from 'node:crypto';
import { Address, beginCell, storeMessage, type Transaction } from '@ton/core';
import { isAppError } from '@starsgate/domain';
import { checkoutSinceLt, type PurchaseRow } from '@starsgate/db';
import {
  buildSendTransactionRequest,
  resolveCheckoutPayer,
  TONCONNECT_MAX_VALIDITY_SECONDS,
  verifySignedBoc,
  type SendTransactionRequest,
  type VerifiedCheckoutBoc,
} from '@starsgate/ton';
import { crashAt } from './crash-points';
import { paymentRequestOf } from './payment-request';
import { payloadCell, type AcceptedRequest } from './send-step';
import type { StepDeps } from './step-deps';
import { enqueueNext, LeaseLostError, type HeldPurchase } from './held-purchase';
import type { PayerWallet } from './wallet-identity';

/** How many of the payer wallet's newest transactions one look of the chain watch reads. */
const WATCH_TRANSACTIONS = 16;

/**
 * The buyer's wallet of a checkout, as prepareStep needs it (Fragment's order is made for its
 * TON Connect account): read from the chain, or from the key and state init the client sent for a
 * wallet not deployed yet.
 */
export async function resolveCheckoutWallet(deps: StepDeps, row: PurchaseRow): Promise<PayerWallet> {
  return resolveCheckoutPayer(
    Address.parseRaw(row.walletAddress!),
    { publicKey: row.payerPublicKey, stateInit: row.payerStateInit },
    { network: deps.config.network, chain: deps.chain },
  );
}

/**
 * The end of `preparing` for a checkout: the payment request Fragment made (accepted by the policy
 * and the funds check) becomes the TON Connect transaction the buyer signs, valid until Fragment's
 * deadline and at most TON Connect's 5 minutes. The checkout then waits for the signed BOC, and
 * its own jobs watch the payer's account meanwhile.
 */
export async function awaitSignature(
  deps: StepDeps,
  purchase: HeldPurchase,
  accepted: AcceptedRequest,
  payerLastLt: bigint,
): Promise<void> {
  const request = paymentRequestOf(accepted.changes.paymentRequest)!;
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
  await purchase.reschedule(
    deps.config.pollIntervalMs,
    {
      ...accepted.changes,
      status: 'awaiting_signature',
      checkoutTransaction: transaction,
      validUntil,
      evidence: purchase.evidenceWith({ checkout: { since_lt: payerLastLt.toString() } }),
    },
    'transaction prepared; waiting for the buyer to sign',
    { ...(accepted.data as object), valid_until: validUntil },
  );
}

interface FoundPayment {
  boc: string;
  verified: VerifiedCheckoutBoc;
  tx: Transaction;
}

/**
 * Looks for this checkout's payment among the payer wallet's transactions since it was prepared:
 * an external that passes every check a submitted BOC must pass (judged as of when it ran).
 */
async function findCheckoutPayment(
  deps: StepDeps,
  row: PurchaseRow,
  transaction: SendTransactionRequest,
): Promise<FoundPayment | null> {
  const payer = Address.parseRaw(transaction.from);
  const transactions = await deps.chain.getTransactions(payer, {
    afterLt: checkoutSinceLt(row),
    limit: WATCH_TRANSACTIONS,
  });
  for (const tx of transactions) {
    const message = tx.inMessage;
    if (message?.info.type !== 'external-in') continue;
    const boc = beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
    try {
      const verified = await verifySignedBoc(boc, transaction, {
        network: deps.config.network,
        chain: deps.chain,
        now: tx.now,
        isLanded: () => Promise.resolve(true),
      });
      return { boc, verified, tx };
    } catch (error) {
      if (isAppError(error)) continue; // another payment of this wallet
      throw error;
    }
  }
  return null;
}

/**
 * `awaiting_signature`: the buyer's wallet usually broadcasts by itself, and a shop's backend may
 * never call /submitted. Until valid_until plus the margin, each job looks at the payer's account:
 * a matching payment found on chain is accepted exactly as a submitted BOC would be (stored with
 * its normalized hash; the checkout moves to `submitted` and its next job confirms it with
 * Fragment). Nothing on chain after the deadline: `expired`, nothing was paid.
 */
export async function awaitingSignatureStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  const { config } = deps;
  const row = purchase.row;
  const transaction = row.checkoutTransaction as SendTransactionRequest;
  const deadlineMs = transaction.validUntil * 1000 + config.validUntilMarginMs;
  const lookedAt = deps.now();
  let payment: FoundPayment | null;
  try {
    payment = await findCheckoutPayment(deps, row, transaction);
  } catch (error) {
    if (lookedAt > deadlineMs + config.maxAges.confirmingMs) {
      await purchase.reconcile(
        {
          code: 'OUTCOME_UNKNOWN',
          message: "The payer wallet could not be read after the checkout's deadline: whether it paid is unknown.",
        },
        { watch_error: (error as Error).message, since_lt: checkoutSinceLt(row).toString() },
        'the chain could not answer after the checkout expired',
      );
      return;
    }
    await purchase.retry('chain lookup failed while watching for the payment', { error: (error as Error).message });
    return;
  }

  if (payment) {
    const accepted = await deps.checkouts.acceptSignedBoc(
      row.id,
      {
        boc: payment.boc,
        normalizedHash: payment.verified.normalizedHash,
        seqno: payment.verified.seqno,
        validUntil: payment.verified.validUntil,
        sinceLt: checkoutSinceLt(row).toString(),
        actor: purchase.owner,
        reason: 'payment found on chain without a submitted BOC',
        data: { normalized_hash: payment.verified.normalizedHash, transaction_hash: payment.tx.hash().toString('hex') },
      },
      randomUUID(),
    );
    // A submitted BOC was accepted meanwhile: its own job goes on.
    if (!accepted) throw new LeaseLostError(row.id);
    crashAt(deps.config, 'after_checkout_accepted');
    await enqueueNext(deps, [accepted]);
    return;
  }

  if (lookedAt <= deadlineMs) {
    await purchase.reschedule(Math.min(config.pollIntervalMs, deadlineMs - lookedAt + 1));
    return;
  }
  const deadline = new Date(transaction.validUntil * 1000).toISOString();
  await purchase.fail(
    {
      code: 'CHECKOUT_EXPIRED',
      message: `Nothing was paid before the checkout's validUntil (${deadline}); nothing left the payer wallet.`,
      details: [{ valid_until: deadline, checked_at: new Date(lookedAt).toISOString() }],
    },
    'expired; no payment on chain',
    undefined,
    'expired',
  );
}
