/**
 * Client-signed checkouts: rows of the purchases table (`mode = 'client_signed'`) that the buyer's
 * own wallet pays. Their lifecycle (CLIENT_SIGNED_LIFECYCLE) is in purchase-status.ts beside the
 * server-signed one.
 */

/** Statuses only a checkout holds (added to PURCHASE_STATUSES). */
export const CHECKOUT_ONLY_STATUSES = ['awaiting_signature', 'expired'] as const;

/** A checkout's statuses, in the order it meets them. */
export const CHECKOUT_STATUSES = [
  'preparing',
  'awaiting_signature',
  'submitted',
  'confirming',
  'completed',
  'failed',
  'expired',
  'reconciliation_required',
] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];
