import { formatUnits, GRAM_DECIMALS, USDT_DECIMALS } from '../money/units';
import { orderFields, outcomeFields, type PurchaseViewSource } from './purchase-view';

/** The checkout columns the public view reads (a `purchases` row or a webhook event's snapshot of one). */
export interface CheckoutViewSource extends PurchaseViewSource {
  mode: string;
  walletAddress: string | null;
  requestedWalletAddress: string | null;
  /** The TON Connect sendTransaction request, once prepared (validUntil in unix seconds). */
  checkoutTransaction: unknown;
  /** The payment request the worker accepted: its currency and amounts give `prices`. */
  paymentRequest: unknown;
}

/** What the prepared transaction pays, in its own currency. */
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

/**
 * The public shape of a checkout (GET /api/v1/checkouts/:id): the order, then once prepared the
 * transaction to sign with its `valid_until` and `prices`, then its outcome.
 */
export function checkoutView(row: CheckoutViewSource) {
  const transaction = row.checkoutTransaction as { validUntil: number } | null;
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

export type CheckoutView = ReturnType<typeof checkoutView>;
