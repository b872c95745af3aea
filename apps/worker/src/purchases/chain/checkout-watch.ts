import type { PurchaseRow } from '@starsgate/db';
import { Address } from '@ton/core';
import { checkoutSinceLt } from '@starsgate/db';
import { scanForCheckoutPayment, type SendTransactionRequest } from '@starsgate/ton';
import { crashAt } from '../crash-points';
import { dropStaleJobs, enqueueNext } from '../persistence/purchase-jobs';
import type { StepDeps } from '../step-deps';
import { SharedLook } from '../waits/shared-look';
import { acceptPaymentFound } from './checkout-payment-found';

/**
 * The shared look of checkouts parked for their buyer's payment (awaiting-signature.ts), one per
 * payer wallet: one incremental read of the payer's account (payerHistories) answers all of its
 * checkouts. A payment found is accepted as a submitted BOC would be (fenced on the status, so a
 * BOC the gateway accepted first wins) and the checkout's next job enqueued; nothing else is
 * written. Expiry stays with each checkout's deadline job, whose read must begin after it.
 */
export function checkoutWatch(deps: StepDeps): SharedLook {
  return new SharedLook(deps, {
    name: 'checkout-watch',
    list: async (limit) => {
      return (await deps.parkedPurchases.awaitingSignature(limit)).map((parked) => ({
        id: parked.id,
        version: parked.version,
        group: parked.payer,
      }));
    },
    look: (rows, owner) => lookForPayments(deps, rows, owner),
  });
}

async function lookForPayments(deps: StepDeps, parked: readonly PurchaseRow[], owner: string): Promise<number> {
  const rows = parked.filter((row) => row.status === 'awaiting_signature');
  let moved = 0;
  for (const row of rows) {
    const transaction = row.checkoutTransaction as SendTransactionRequest;
    // The checkouts of one payer share its read (PayerHistories, one per payer at a time).
    const history = await deps.payerHistories.view(Address.parseRaw(transaction.from), checkoutSinceLt(row));
    const scan = await scanForCheckoutPayment(history.chain, transaction, {
      network: deps.config.network,
      sinceLt: checkoutSinceLt(row),
    });
    if (scan.outcome !== 'found') continue;
    const accepted = await acceptPaymentFound(deps, row, scan.payment, owner);
    if (!accepted) continue;
    crashAt(deps.config, 'after_checkout_accepted');
    await enqueueNext(deps, [accepted]);
    // Its deadline job was for the version before: stale now.
    await dropStaleJobs(deps, [accepted]);
    moved += 1;
  }
  return moved;
}
