import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from '@starsgate/domain';
import type { PurchaseRow } from '@starsgate/db';
import type { SendTransactionRequest } from '@starsgate/ton';
import { orderFields, outcomeFields } from '../purchases/purchase-view';

export function checkoutStatusUrl(checkoutId: string): string {
  return `/api/v1/checkouts/${checkoutId}`;
}

export function acceptedCheckoutView(row: Pick<PurchaseRow, 'id' | 'status'>) {
  return { checkout_id: row.id, status: row.status, status_url: checkoutStatusUrl(row.id) };
}

/** What the prepared transaction pays, in its own currency (the payment request the worker accepted). */
function pricesOf(paymentRequest: unknown): { gram: string } | { usdt: string } | undefined {
  const request = paymentRequest as {
    currency?: string;
    message?: { amount?: string };
    jetton?: { amount?: string };
  } | null;
  if (request?.currency === 'USDT' && request.jetton?.amount)
    return { usdt: formatUnits(BigInt(request.jetton.amount), USDT_DECIMALS) };
  if (request?.currency === 'GRAM' && request.message?.amount)
    return { gram: formatUnits(BigInt(request.message.amount), GRAM_DECIMALS) };
  return undefined;
}

/** The public shape of a checkout: the order, then once prepared the transaction to sign, then its outcome. */
export function checkoutView(row: PurchaseRow) {
  const transaction = row.checkoutTransaction as SendTransactionRequest | null;
  const prices = pricesOf(row.paymentRequest);
  return {
    checkout_id: row.id,
    status: row.status,
    ...orderFields(row),
    payer_address: row.walletAddress ?? row.requestedWalletAddress ?? '',
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(transaction && prices
      ? { valid_until: new Date(transaction.validUntil * 1000).toISOString(), prices, transaction }
      : {}),
    ...outcomeFields(row, ['failed', 'expired', 'reconciliation_required']),
  };
}
