import { checkoutView, type CheckoutViewSource } from '../purchases/checkout-view';
import { purchaseView, type PurchaseViewSource } from '../purchases/purchase-view';

function isCheckout(row: PurchaseViewSource | CheckoutViewSource): row is CheckoutViewSource {
  return (row as { mode?: unknown }).mode === 'client_signed';
}

/**
 * The one mapping from a purchase row (as the outbox snapshot recorded it) to its webhook event:
 * `purchase.<status>` with the public GET /api/v1/purchases body, or for a client-signed checkout
 * `checkout.<status>` with the GET /api/v1/checkouts body.
 */
export function webhookEventOf(row: PurchaseViewSource | CheckoutViewSource): {
  type: string;
  data: Record<string, unknown>;
} {
  if (isCheckout(row)) return { type: `checkout.${row.status}`, data: checkoutView(row) };
  return { type: `purchase.${row.status}`, data: purchaseView(row) };
}

/** The JSON document posted to an endpoint (its raw bytes are what the signature covers). */
export function webhookEventBody(
  event: { id: string; sequence: number; createdAt: Date },
  row: PurchaseViewSource | CheckoutViewSource,
): string {
  const { type, data } = webhookEventOf(row);
  return JSON.stringify({
    id: event.id,
    type,
    created_at: event.createdAt.toISOString(),
    sequence: event.sequence,
    data,
  });
}
