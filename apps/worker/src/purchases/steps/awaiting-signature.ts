import { Address } from '@ton/core';
import { checkoutSinceLt, type PurchaseRow } from '@starsgate/db';
import { scanForCheckoutPayment, type CheckoutPaymentScan, type SendTransactionRequest } from '@starsgate/ton';
import { acceptPaymentFound } from '../chain/checkout-payment-found';
import type { PayerHistoryView } from '../chain/payer-history';
import { crashAt } from '../crash-points';
import { decide } from '../persistence/purchase-decision';
import { applyDecision } from '../persistence/purchase-writer';
import type { StepDeps } from '../step-deps';
import type { HeldPurchase } from '../persistence/held-purchase';
import { LeaseLostError } from '../persistence/lease-lost-error';
import { enqueueNext } from '../persistence/purchase-jobs';

/** Whether the payer's seqno moved since the checkout was prepared (unknown when not recorded: yes). */
async function payerSignedSince(
  deps: StepDeps,
  row: PurchaseRow,
  transaction: SendTransactionRequest,
): Promise<boolean> {
  const prepared = (row.evidence as { checkout?: { seqno?: number } } | null)?.checkout?.seqno;
  if (prepared === undefined) return true;
  return (await deps.chain.getSeqno(Address.parseRaw(transaction.from))) !== prepared;
}

/** A parked checkout's own job runs this long after its deadline, so the deadline has passed. */
const DEADLINE_SLACK_MS = 50;

/** Without the checkout watch, polls back off while the payer's account shows nothing new: up to 8 poll intervals apart. */
function watchIntervalMs(pollIntervalMs: number, idleScans: number): number {
  return pollIntervalMs * 2 ** Math.min(Math.max(idleScans - 1, 0), 3);
}

/**
 * `awaiting_signature`: the buyer's wallet usually broadcasts by itself, and a shop's backend may
 * never call /submitted. Until valid_until plus the margin, each job looks at the payer's account:
 * a matching payment found on chain is accepted exactly as a submitted BOC would be (stored with
 * its normalized hash; the checkout moves to `submitted` and its next job confirms it with
 * Fragment). Nothing on chain after the deadline, every transaction since the checkout was prepared
 * read (no page cap): `expired`, nothing was paid. A history that could not be read back that far
 * while the wallet's seqno moved: `reconciliation_required`. The payer's account is read through
 * `payerHistories`: one incremental read per payer shared by its checkouts, polls backing off
 * while nothing happens on it (docs/security.md, attack 17).
 */
export async function awaitingSignatureStep(deps: StepDeps, purchase: HeldPurchase): Promise<void> {
  const { config } = deps;
  const row = purchase.row;
  const transaction = row.checkoutTransaction as SendTransactionRequest;
  const deadlineMs = transaction.validUntil * 1000 + config.validUntilMarginMs;
  const lookedAt = deps.now();
  let scan: CheckoutPaymentScan;
  let history: PayerHistoryView;
  try {
    // After the deadline, "not paid" must come from a read begun after it.
    history = await deps.payerHistories.view(
      Address.parseRaw(transaction.from),
      checkoutSinceLt(row),
      lookedAt > deadlineMs ? deadlineMs + 1 : 0,
    );
    scan = await scanForCheckoutPayment(history.chain, transaction, {
      network: config.network,
      sinceLt: checkoutSinceLt(row),
    });
  } catch (error) {
    if (lookedAt > deadlineMs + config.maxAges.confirmingMs) {
      await applyDecision(
        deps,
        purchase,
        decide.reconcile(
          deps,
          purchase.row,
          {
            code: 'OUTCOME_UNKNOWN',
            message: "The payer wallet could not be read after the checkout's deadline: whether it paid is unknown.",
          },
          { watch_error: (error as Error).message, since_lt: checkoutSinceLt(row).toString() },
          'the chain could not answer after the checkout expired',
        ),
      );
      return;
    }
    await applyDecision(
      deps,
      purchase,
      decide.retry(deps, purchase.row, 'chain lookup failed while watching for the payment', {
        error: (error as Error).message,
      }),
    );
    return;
  }

  if (scan.outcome === 'found') {
    const accepted = await acceptPaymentFound(deps, row, scan.payment, purchase.owner);
    // A submitted BOC was accepted meanwhile: its own job goes on.
    if (!accepted) throw new LeaseLostError(row.id);
    crashAt(deps.config, 'after_checkout_accepted');
    await enqueueNext(deps, [accepted]);
    return;
  }

  if (lookedAt <= deadlineMs) {
    if (deps.checkoutWatch) {
      // Parked until its deadline: the checkout watch's shared look per payer wakes it when it is paid.
      await applyDecision(deps, purchase, decide.reschedule(deadlineMs - lookedAt + DEADLINE_SLACK_MS));
      deps.checkoutWatch.waiting();
      return;
    }
    await applyDecision(
      deps,
      purchase,
      decide.reschedule(Math.min(watchIntervalMs(config.pollIntervalMs, history.idleScans), deadlineMs - lookedAt + 1)),
    );
    return;
  }
  if (scan.outcome === 'incomplete' && (await payerSignedSince(deps, row, transaction))) {
    await applyDecision(
      deps,
      purchase,
      decide.reconcile(
        deps,
        purchase.row,
        {
          code: 'OUTCOME_UNKNOWN',
          message:
            "The payer wallet signed a transaction since the checkout was prepared, but its history could not be read back to the checkout's start: whether it paid is unknown.",
        },
        { watch: { incomplete: scan.reason, scanned: scan.scanned, since_lt: checkoutSinceLt(row).toString() } },
        'expired with an incomplete scan of a wallet that signed meanwhile',
      ),
    );
    return;
  }
  const deadline = new Date(transaction.validUntil * 1000).toISOString();
  await applyDecision(
    deps,
    purchase,
    decide.fail(
      deps,
      {
        code: 'CHECKOUT_EXPIRED',
        message: `Nothing was paid before the checkout's validUntil (${deadline}); nothing left the payer wallet.`,
        details: [{ valid_until: deadline, checked_at: new Date(lookedAt).toISOString() }],
      },
      'expired; no payment on chain',
      undefined,
      'expired',
    ),
  );
}
