import { purchaseView, type PurchaseViewSource } from '../purchases/purchase-view';

/** Event types an endpoint may subscribe to: one per status a purchase can enter. */
export const WEBHOOK_EVENT_PREFIXES = ['purchase'] as const;

/**
 * The one mapping from a purchase row (as the outbox snapshot recorded it) to its webhook event:
 * `purchase.<status>` with the public GET body. Client-signed checkouts (rows with a `mode`)
 * extend this function, and only this one, to `checkout.<status>` with their own public body.
 */
export function webhookEventOf(row: PurchaseViewSource): { type: string; data: Record<string, unknown> } {
  return { type: `purchase.${row.status}`, data: purchaseView(row) };
}

/** The JSON document posted to an endpoint (its raw bytes are what the signature covers). */
export function webhookEventBody(
  event: { id: string; sequence: number; createdAt: Date },
  row: PurchaseViewSource,
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
