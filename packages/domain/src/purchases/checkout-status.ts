/**
 * Client-signed checkouts: rows of the purchases table (`mode = 'client_signed'`) that the buyer's
 * own wallet pays. They go through the same worker state machine, with their own statuses and moves.
 */
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

/**
 * Allowed moves of a checkout. `expired`: nothing was paid before `valid_until` (checked on chain).
 * `awaiting_signature` may also find the payment on chain (the wallet broadcast it itself) and
 * move on exactly as a submitted BOC would.
 */
export const CHECKOUT_TRANSITIONS: Readonly<Record<CheckoutStatus, readonly CheckoutStatus[]>> = {
  preparing: ['preparing', 'awaiting_signature', 'failed'],
  awaiting_signature: ['submitted', 'expired', 'reconciliation_required'],
  submitted: ['confirming', 'failed', 'reconciliation_required'],
  confirming: ['completed', 'failed', 'reconciliation_required'],
  completed: [],
  failed: [],
  expired: [],
  reconciliation_required: ['completed', 'failed'],
};

export const TERMINAL_CHECKOUT_STATUSES: readonly CheckoutStatus[] = [
  'completed',
  'failed',
  'expired',
  'reconciliation_required',
];
