import { AppError } from '@starsgate/domain';
import type { CheckoutRepository } from '@starsgate/db';

/**
 * Each open checkout is a watch of its payer's account on the shared toncenter budget, and a
 * checkout may name any wallet, a busy public one included: a payer has at most `cap` checkouts
 * waiting to be paid (docs/security.md, attack 17). Checked before the payer is looked up on
 * chain; a replay never gets here (intake answers it first). The refusal's retry_after is the
 * open-order caps' (OPEN_ORDERS_RETRY_AFTER_SECONDS).
 */
export async function assertOpenCheckoutRoom(
  checkouts: Pick<CheckoutRepository, 'countOpenOfPayer'>,
  payerAddress: string,
  limit: { cap: number; retryAfterSeconds: number },
): Promise<void> {
  const { cap } = limit;
  if ((await checkouts.countOpenOfPayer(payerAddress, cap)) < cap) return;
  throw new AppError('OPEN_CHECKOUTS_LIMIT_REACHED', {
    retryAfterSeconds: limit.retryAfterSeconds,
    details: [{ field: 'payer_address', message: `this wallet has ${cap} checkouts waiting to be paid` }],
  });
}
