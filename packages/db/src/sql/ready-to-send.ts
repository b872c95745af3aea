import { purchaseLeaseIsFree } from './lease-expressions';

/** A purchase of wallet `$walletParam` that finished `preparing` (payment request stored, nothing signed) and that nobody holds. */
export function readyToSendOf(walletParam: string): string {
  return `wallet_address = ${walletParam} AND status = 'preparing' AND payment_request IS NOT NULL AND batch_id IS NULL
      AND ${purchaseLeaseIsFree()}`;
}
