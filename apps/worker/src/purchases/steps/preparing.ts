import { rowQuantities } from '@starsgate/domain';
import { Address } from '@ton/core';
import { backoffMs } from '@starsgate/platform';
import type { FragmentPaymentMethod, RecipientInfo } from '@starsgate/fragment';
import { compareFunds, lessReserved, readBalances, type Balances, type FundsShortfall } from '../policy/funds-check';
import { reservedByOpenOrders } from '../policy/payer-reservation';
import { checkFundsByPriceBook } from '../policy/price-precheck';
import { ownQueryId } from '../policy/payer-jetton-transfer';
import { jettonWalletOf } from '../policy/payer-jetton-wallet';
import { withRequestMac } from '../policy/signing-check';
import { checkPaymentPolicy, parseAddress } from '../policy/payment-policy';
import { spendCapViolation } from '../policy/spend-cap-precheck';
import { outflow } from '../policy/payment-request';
import type { AcceptedRequest } from '../wallet/wallet-sender';
import { offerToBuyer } from './preparing-offer';
import { sendAccepted, signForWallet, toSending } from './preparing-sender';
import { sharedCall } from '../shared-call';
import { decide } from '../persistence/purchase-decision';
import { applyDecision } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from '../persistence/held-purchase';
import { classifyPreSignError } from '../upstream/upstream-errors';
import {
  resolveCheckoutWallet,
  resolvePayerWallet,
  SecretUnavailableError,
  tonConnectAccount,
} from '../wallet/wallet-identity';
import type { NextStep } from '../next-step';

const FRAGMENT_METHOD: Record<string, FragmentPaymentMethod> = { gram: 'ton', usdt: 'usdt_ton' };

/**
 * `preparing` has two halves. Without a payment request: resolve the payer wallet, create the
 * Fragment order (search → sync → init → link), and accept its payment request only if the policy
 * and the balances allow it (prepareOrder). With one accepted (stored, or just now): a checkout
 * offers it to the buyer's wallet (`awaiting_signature`); a server-signed purchase goes to its
 * wallet's sender, which signs and persists a batch (`sending`) that this job hands on to be
 * broadcast.
 */
export async function preparingStep(deps: StepDeps, purchase: HeldPurchase): Promise<NextStep | undefined> {
  return purchase.row.paymentRequest ? sendAccepted(deps, purchase) : prepareOrder(deps, purchase);
}

/**
 * When `preparing` first found the price book unable to price this order (evidence key), in ms.
 * Only an ask in the current step counts: a re-preparation (the request expired) starts afresh.
 */
const UNPRICED_SINCE = 'prices_unavailable_since';

function unpricedSince(purchase: HeldPurchase, now: number): number {
  const since = (purchase.row.evidence as Record<string, unknown> | null)?.[UNPRICED_SINCE];
  return typeof since === 'number' && since >= purchase.row.stepStartedAt.getTime() ? since : now;
}

/**
 * The first half of `preparing`: the Fragment order and its accepted payment request. Nothing is
 * signed here: the same job hands the accepted request to its wallet's sender, which stores it.
 */
async function prepareOrder(deps: StepDeps, purchase: HeldPurchase): Promise<NextStep | undefined> {
  const row = purchase.row;
  const { config } = deps;
  if (deps.now() - row.stepStartedAt.getTime() > config.maxAges.preparingMs) {
    await applyDecision(
      deps,
      purchase,
      decide.fail(
        deps,
        {
          code: 'STEP_TIMED_OUT',
          message: `preparing exceeded its maximum age of ${config.maxAges.preparingMs} ms; nothing was signed.`,
        },
        'step timed out',
      ),
    );
    return undefined;
  }
  const { product, paymentMethod } = row;

  const overCap = await spendCapViolation(deps.prices, config, {
    product,
    amount: row.amount,
    quantities: rowQuantities(row),
    paymentMethod,
  });
  if (overCap) {
    await applyDecision(
      deps,
      purchase,
      decide.fail(
        deps,
        {
          code: 'PAYMENT_REJECTED_BY_POLICY',
          message: `The order is over the spend cap: ${overCap.message}. Nothing was signed.`,
          details: [overCap],
        },
        'over the spend cap; Fragment was not asked',
      ),
    );
    return undefined;
  }

  const checkout = row.mode === 'client_signed';
  let stage = 'wallet';
  let accepted: AcceptedRequest;
  let payer: { lastLt: bigint; seqno: number } = { lastLt: 0n, seqno: 0 };
  try {
    const wallet = checkout ? await resolveCheckoutWallet(deps, row) : await resolvePayerWallet(deps, purchase);
    const account = tonConnectAccount(wallet, config.network);
    const payerJettonWallet = paymentMethod === 'usdt' ? await jettonWalletOf(deps, wallet.address) : undefined;

    stage = 'funds';
    const reserved = await reservedByOpenOrders(deps, row, wallet.address);
    const early = await checkFundsByPriceBook(
      deps.prices,
      config,
      { product, amount: row.amount, quantities: rowQuantities(row), paymentMethod },
      async () => lessReserved(await recentBalances(deps, row, wallet.address, payerJettonWallet), reserved),
    );
    if (early.kind === 'unpriced') {
      // A quote Fragment could not give for a while (a timeout, a 5xx, a Cloudflare page) is asked
      // again over PRICE_BOOK_WAIT_MS, by the clock and not by the step's attempt counter, which
      // other retries of the step share (docs/security.md attack 19e).
      const since = unpricedSince(purchase, deps.now());
      if (deps.now() - since < config.priceBookWaitMs) {
        const attempt = row.attempt + 1;
        const delay = backoffMs(attempt, config.retryBaseMs, config.retryMaxMs);
        await applyDecision(
          deps,
          purchase,
          decide.reschedule(
            delay,
            { attempt, evidence: purchase.evidenceWith({ [UNPRICED_SINCE]: since }) },
            'funds: the price book cannot price the order yet',
            { attempt, retry_in_ms: delay, unpriced_for_ms: deps.now() - since },
          ),
        );
        return undefined;
      }
      await applyDecision(
        deps,
        purchase,
        decide.fail(
          deps,
          {
            code: 'PRICES_UNAVAILABLE',
            message: `The price book could not price this order for ${config.priceBookWaitMs} ms, so the spend cap and funds checks cannot run; Fragment was not asked.`,
          },
          'no price book; Fragment was not asked',
        ),
      );
      return undefined;
    }
    if (!early.funds.ok) {
      await applyDecision(
        deps,
        purchase,
        decide.fail(
          deps,
          topUpRequired(early.funds.details),
          'insufficient funds by the price book; Fragment was not asked',
        ),
      );
      return undefined;
    }

    stage = 'fragment';
    const { sessionId, result: init } = await deps.fragment.flow(
      // initRequest syncs the page state first (update…State, and the product's prices where it has them) and
      // re-syncs on "Price was changed": a separate syncState here would only repeat that call.
      (client, recipient: RecipientInfo) =>
        client.initRequest({
          product,
          recipient: recipient.recipient,
          amount: rowQuantities(row),
          paymentMethod: FRAGMENT_METHOD[paymentMethod]!,
        }),
      // The search reads no flow state: it runs while the session's previous order is created.
      (client) => client.searchRecipient(product, row.username, rowQuantities(row)),
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
      bookPrice: early.bookPrice,
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
      await applyDecision(
        deps,
        purchase,
        decide.fail(
          deps,
          {
            code: 'PAYMENT_REJECTED_BY_POLICY',
            message: `Fragment's payment request failed: ${verdict.violations.map((v) => v.check).join(', ')}. Nothing was signed.${verdict.violations
              .filter((v) => v.destination)
              .map(
                (v) =>
                  ` Fragment asked to pay ${v.destination!.friendly} (${v.destination!.raw}), which is not allow-listed.`,
              )
              .join('')}`,
            details: verdict.violations,
          },
          'payment request rejected by policy',
          { fragment_req_id: order.init.reqId },
        ),
      );
      return undefined;
    }

    stage = 'funds';
    const need = outflow(verdict.request);
    const balances = await recentBalances(deps, row, wallet.address, payerJettonWallet);
    // A checkout records where the payer stood: its watch scans from there and judges an incomplete scan by the seqno.
    if (checkout) payer = { lastLt: balances.lastLt, seqno: await deps.chain.getSeqno(wallet.address) };
    const funds = compareFunds(lessReserved(balances, reserved), need, config.gramFeeReserveNano);
    if (!funds.ok) {
      await applyDecision(deps, purchase, decide.fail(deps, topUpRequired(funds.details), 'insufficient funds'));
      return undefined;
    }

    accepted = {
      changes: {
        walletAddress: wallet.address.toRawString(),
        walletVersion: wallet.version,
        fragmentReqId: order.init.reqId,
        fragmentRef: verdict.request.ref,
        quoteNano: BigInt(verdict.request.quote),
        paymentRequest: withRequestMac(deps.requestMac, row, wallet.address.toRawString(), {
          ...verdict.request,
          fragmentSession: sessionId,
          // Recorded only when the operator says each login is its own account (FRAGMENT_ACCOUNT_SCOPE):
          // without it the order counts against every login's history, which can only make a check wait.
          ...(config.fragmentAccountScope === 'login'
            ? { fragmentAccount: deps.fragment.session(sessionId).accountId() }
            : {}),
        }),
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
      await applyDecision(
        deps,
        purchase,
        decide.fail(
          deps,
          { code: 'PURCHASE_FAILED', message: 'The wallet secret is no longer stored.' },
          'secret unavailable',
        ),
      );
      return undefined;
    }
    const outcome = classifyPreSignError(error);
    if (outcome.kind === 'fail') {
      await applyDecision(
        deps,
        purchase,
        decide.fail(deps, { code: outcome.code, message: outcome.message }, `${stage} failed`),
      );
      return undefined;
    }
    // An init whose answer was lost may have created an order upstream; without our signature it
    // cannot be paid, so a fresh search+init is safe. Recorded for the audit trail.
    await applyDecision(
      deps,
      purchase,
      decide.retry(
        deps,
        purchase.row,
        outcome.outcomeUnknown
          ? `${stage}: outcome unknown, redoing with a fresh order`
          : `${stage}: transient failure`,
        { cause: outcome.reason },
        outcome.minDelayMs,
      ),
    );
    return undefined;
  }
  // A checkout's transaction is signed by the buyer's wallet: it waits for that signature.
  if (checkout) {
    await offerToBuyer(deps, purchase, accepted, payer);
    return undefined;
  }
  // Still holding the claim: go straight to the wallet's sender rather than through another job;
  // it stores the accepted request with its first write.
  return toSending(await signForWallet(deps, purchase, accepted));
}

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
