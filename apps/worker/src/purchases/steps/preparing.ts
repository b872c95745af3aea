import type { Product, PaymentMethod } from '@starsgate/domain';
import { Address } from '@ton/core';
import type { FragmentPaymentMethod, RecipientInfo } from '@starsgate/fragment';
import { compareFunds, readBalances, type Balances, type FundsShortfall } from '../policy/funds-check';
import { checkFundsByPriceBook } from '../policy/price-precheck';
import { awaitSignature, resolveCheckoutWallet } from './awaiting-signature';
import { ownQueryId } from '../policy/payer-jetton-transfer';
import { checkPaymentPolicy, parseAddress } from '../policy/payment-policy';
import { outflow } from '../policy/payment-request';
import { sendStep, type AcceptedRequest } from '../wallet/wallet-sender';
import { sharedCall } from '../shared-call';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from '../persistence/held-purchase';
import { classifyPreSignError } from '../upstream/upstream-errors';
import { resolvePayerWallet, SecretUnavailableError, tonConnectAccount } from '../wallet/wallet-identity';

const FRAGMENT_METHOD: Record<string, FragmentPaymentMethod> = { gram: 'ton', usdt: 'usdt_ton' };

/**
 * `preparing`: resolve the payer wallet, create the Fragment order (search → sync → init →
 * link), and accept its payment request only if the policy and the balances allow it. Nothing is
 * signed here: the same job hands the accepted request to its wallet's sender, which stores it.
 */
export async function prepareStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  const row = purchase.row;
  const { config } = deps;
  if (deps.now() - row.stepStartedAt.getTime() > config.maxAges.preparingMs) {
    await purchase.fail(
      {
        code: 'STEP_TIMED_OUT',
        message: `preparing exceeded its maximum age of ${config.maxAges.preparingMs} ms; nothing was signed.`,
      },
      'step timed out',
    );
    return;
  }
  const product = row.product as Product;
  const paymentMethod = row.paymentMethod as PaymentMethod;

  const checkout = row.mode === 'client_signed';
  let stage = 'wallet';
  let accepted: AcceptedRequest;
  let payer: { lastLt: bigint; seqno: number } = { lastLt: 0n, seqno: 0 };
  try {
    const wallet = checkout ? await resolveCheckoutWallet(deps, row) : await resolvePayerWallet(deps, purchase);
    const account = tonConnectAccount(wallet, config.network);
    const payerJettonWallet = paymentMethod === 'usdt' ? await jettonWalletOf(deps, wallet.address) : undefined;

    if (deps.prices) {
      stage = 'funds';
      const early = await checkFundsByPriceBook(
        deps.prices,
        config,
        { product, amount: row.amount, paymentMethod },
        () => recentBalances(deps, row, wallet.address, payerJettonWallet),
      );
      if (early && !early.ok) {
        await purchase.fail(
          topUpRequired(early.details),
          'insufficient funds by the price book; Fragment was not asked',
        );
        return;
      }
    }

    stage = 'fragment';
    const { sessionId, result: init } = await deps.fragment.flow(
      // initRequest syncs the page state first (update…State, Stars also updateStarsPrices) and
      // re-syncs on "Price was changed": a separate syncState here would only repeat that call.
      (client, recipient: RecipientInfo) =>
        client.initRequest({
          product,
          recipient: recipient.recipient,
          amount: row.amount,
          paymentMethod: FRAGMENT_METHOD[paymentMethod]!,
        }),
      // The search reads no flow state: it runs while the session's previous order is created.
      (client) => client.searchRecipient(product, row.username, row.amount),
    );
    // The link names its order: the session creates the next order meanwhile.
    const order = {
      init,
      transaction: await deps.fragment.session(sessionId).getTransaction({ product, reqId: init.reqId, account }),
    };

    const verdict = checkPaymentPolicy({
      config,
      product,
      quantity: row.amount,
      paymentMethod,
      payer: wallet.address,
      ...(payerJettonWallet ? { payerJettonWallet } : {}),
      initAmount: order.init.amount,
      transaction: order.transaction,
      account,
      nowSeconds: Math.floor(deps.now() / 1000),
      ownQueryId: ownQueryId(row.id),
    });
    const fragmentFrom = parseAddress(order.transaction.from);
    if (!fragmentFrom?.equals(wallet.address)) {
      deps.fragmentFrom.report({
        purchaseId: row.id,
        mode: row.mode,
        paymentMethod,
        fragmentFrom: order.transaction.from,
        payer: wallet.address.toRawString(),
        rebuilt: verdict.ok && verdict.request.fragmentMessage !== undefined,
        refused: !verdict.ok && verdict.violations.some((v) => v.check === 'payer'),
      });
    }
    if (!verdict.ok) {
      await purchase.fail(
        {
          code: 'PAYMENT_REJECTED_BY_POLICY',
          message: `Fragment's payment request failed: ${verdict.violations.map((v) => v.check).join(', ')}. Nothing was signed.`,
          details: verdict.violations,
        },
        'payment request rejected by policy',
        { fragment_req_id: order.init.reqId },
      );
      return;
    }

    stage = 'funds';
    const need = outflow(verdict.request);
    const balances = await recentBalances(deps, row, wallet.address, payerJettonWallet);
    // A checkout records where the payer stood: its watch scans from there and judges an incomplete scan by the seqno.
    if (checkout) payer = { lastLt: balances.lastLt, seqno: await deps.chain.getSeqno(wallet.address) };
    const funds = compareFunds(balances, need, config.gramFeeReserveNano);
    if (!funds.ok) {
      await purchase.fail(topUpRequired(funds.details), 'insufficient funds');
      return;
    }

    accepted = {
      changes: {
        walletAddress: wallet.address.toRawString(),
        walletVersion: wallet.version,
        fragmentReqId: order.init.reqId,
        fragmentRef: verdict.request.ref,
        quoteNano: BigInt(verdict.request.quote),
        paymentRequest: { ...verdict.request, fragmentSession: sessionId },
        attempt: 0,
        stepStartedAt: new Date(deps.now()),
      },
      reason: 'payment request accepted; waiting for the wallet sender',
      data: {
        fragment_req_id: order.init.reqId,
        fragment_from: verdict.request.fragmentFrom,
        ref: verdict.request.ref,
        currency: verdict.request.currency,
        amount: verdict.request.jetton?.amount ?? verdict.request.message.amount,
        valid_until: verdict.request.validUntil,
      },
    };
  } catch (error) {
    if (error instanceof SecretUnavailableError) {
      await purchase.fail(
        { code: 'PURCHASE_FAILED', message: 'The wallet secret is no longer stored.' },
        'secret unavailable',
      );
      return;
    }
    const outcome = classifyPreSignError(error);
    if (outcome.kind === 'fail') {
      await purchase.fail({ code: outcome.code, message: outcome.message }, `${stage} failed`);
      return;
    }
    // An init whose answer was lost may have created an order upstream; without our signature it
    // cannot be paid, so a fresh search+init is safe. Recorded for the audit trail.
    await purchase.retry(
      outcome.outcomeUnknown ? `${stage}: outcome unknown, redoing with a fresh order` : `${stage}: transient failure`,
      { cause: outcome.reason },
      outcome.minDelayMs,
    );
    return;
  }
  // A checkout's transaction is signed by the buyer's wallet: it waits for that signature.
  if (checkout) {
    await awaitSignature(deps, purchase, accepted, payer);
    return;
  }
  // Still holding the claim: go straight to the wallet's sender rather than through another job;
  // it stores the accepted request with its first write.
  await sendStep(deps, purchase, accepted);
}

/** The payer's USDT jetton wallet: a pure function of master and owner, so one lookup serves a while. */
function topUpRequired(details: FundsShortfall[]) {
  return {
    code: 'TOP_UP_REQUIRED' as const,
    message: `The payer wallet is short of ${details
      .filter((d) => d.shortfall !== '0')
      .map((d) => `${d.shortfall} ${d.currency}`)
      .join(' and ')}.`,
    details,
  };
}

function jettonWalletOf(deps: StepDeps, owner: Address): Promise<Address> {
  return sharedCall(
    deps.chain,
    `jetton-wallet:${owner.toRawString()}`,
    { now: deps.now(), maxAgeMs: 10 * 60_000 },
    () => deps.chain.getJettonWalletAddress(deps.config.usdtMaster, owner),
  );
}

/**
 * Balances for the early funds check, shared by purchases of one wallet preparing together: a read
 * is reused only if it started after this purchase was accepted and at most a second ago. The
 * sender checks the whole batch against a fresh snapshot before signing anyway.
 */
function recentBalances(
  deps: StepDeps,
  row: HeldPurchase['row'],
  wallet: Address,
  jettonWallet: Address | undefined,
): Promise<Balances> {
  return sharedCall(
    deps.chain,
    `balances:${wallet.toRawString()}:${jettonWallet?.toRawString() ?? ''}`,
    { now: deps.now(), notBefore: row.createdAt.getTime(), maxAgeMs: 1_000 },
    () => readBalances(deps.chain, wallet, jettonWallet),
  );
}
