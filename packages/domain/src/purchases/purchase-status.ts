/** Purchase statuses (spec: states and transitions). */
export const PURCHASE_STATUSES = [
  'queued',
  'preparing',
  'sending',
  'submitted',
  'confirming',
  'completed',
  'failed',
  'reconciliation_required',
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

export const TERMINAL_STATUSES: readonly PurchaseStatus[] = ['completed', 'failed', 'reconciliation_required'];

export function isTerminalStatus(status: PurchaseStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

/**
 * Allowed moves. `failed` is only reachable from a state where no money can have left the
 * wallet, or with proof of non-execution (checked by the state machine, not here).
 */
export const PURCHASE_TRANSITIONS: Readonly<Record<PurchaseStatus, readonly PurchaseStatus[]>> = {
  queued: ['preparing', 'failed'],
  preparing: ['preparing', 'sending', 'failed'],
  sending: ['submitted', 'failed', 'reconciliation_required'],
  submitted: ['confirming', 'failed', 'reconciliation_required'],
  confirming: ['completed', 'failed', 'reconciliation_required'],
  completed: [],
  failed: [],
  reconciliation_required: ['completed', 'failed'],
};

export function canTransition(from: PurchaseStatus, to: PurchaseStatus): boolean {
  return PURCHASE_TRANSITIONS[from].includes(to);
}
