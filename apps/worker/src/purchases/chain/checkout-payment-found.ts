import { randomUUID } from 'node:crypto';
import { checkoutSinceLt, type PurchaseRow } from '@starsgate/db';
import type { CheckoutPaymentScan } from '@starsgate/ton';
import type { StepDeps } from '../step-deps';

/**
 * A checkout's payment found on chain without a submitted BOC, accepted exactly as a submitted BOC
 * would be: stored with its normalized hash, the checkout moved to `submitted` (fenced on the
 * status: CheckoutRepository.acceptSignedBoc). Null when a BOC was accepted meanwhile.
 */
export function acceptPaymentFound(
  deps: StepDeps,
  row: PurchaseRow,
  payment: Extract<CheckoutPaymentScan, { outcome: 'found' }>['payment'],
  actor: string,
): Promise<PurchaseRow | null> {
  return deps.checkouts.acceptSignedBoc(
    row.id,
    {
      boc: payment.boc,
      normalizedHash: payment.verified.normalizedHash,
      seqno: payment.verified.seqno,
      validUntil: payment.verified.validUntil,
      sinceLt: checkoutSinceLt(row).toString(),
      actor,
      reason: 'payment found on chain without a submitted BOC',
      data: { normalized_hash: payment.verified.normalizedHash, transaction_hash: payment.tx.hash().toString('hex') },
    },
    randomUUID(),
  );
}
