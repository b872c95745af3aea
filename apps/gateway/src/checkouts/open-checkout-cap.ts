import { AppError } from '@starsgate/domain';
import type { CheckoutRepository } from '@starsgate/db';

/** How long a refused payer waits: its open checkouts are paid or expire within TON Connect's 5 minutes. */
const RETRY_AFTER_SECONDS = 30;

/**
 * Each open checkout is a watch of its payer's account on the shared toncenter budget, and a
 * checkout may name any wallet, a busy public one included: a payer has at most `cap` checkouts
 * waiting to be paid (docs/security.md, attack 17). Checked before the payer is looked up on
 * chain; a replay never gets here (intake answers it first).
 */
export async function assertOpenCheckoutRoom(
  checkouts: Pick<CheckoutRepository, 'countOpenOfPayer'>,
  payerAddress: string,
  cap: number,
): Promise<void> {
  if ((await checkouts.countOpenOfPayer(payerAddress, cap)) < cap) return;
  throw new AppError('OPEN_CHECKOUTS_LIMIT_REACHED', {
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    details: [{ field: 'payer_address', message: `this wallet has ${cap} checkouts waiting to be paid` }],
  });
}
