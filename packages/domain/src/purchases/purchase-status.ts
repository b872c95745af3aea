import {
  CHECKOUT_STATUSES,
  CHECKOUT_TRANSITIONS,
  TERMINAL_CHECKOUT_STATUSES,
  type CheckoutStatus,
} from './checkout-status';

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

/** How a row is paid: the service signs with the stored seed, or the buyer's wallet signs (checkout). */
export const PURCHASE_MODES = ['server_signed', 'client_signed'] as const;
export type PurchaseMode = (typeof PURCHASE_MODES)[number];

/** Every status a row of either mode can hold (the database's status check). */
export const ALL_STATUSES = [...new Set<string>([...PURCHASE_STATUSES, ...CHECKOUT_STATUSES])] as ReadonlyArray<
  PurchaseStatus | CheckoutStatus
>;

/** Statuses after which a row of either mode is never worked on again (the SQL "live" lists). */
export const ALL_TERMINAL_STATUSES = [
  ...new Set<string>([...TERMINAL_STATUSES, ...TERMINAL_CHECKOUT_STATUSES]),
] as ReadonlyArray<PurchaseStatus | CheckoutStatus>;

/** The transition table of a mode. */
export function transitionsFor(mode: PurchaseMode): Readonly<Record<string, readonly string[]>> {
  return mode === 'client_signed' ? CHECKOUT_TRANSITIONS : PURCHASE_TRANSITIONS;
}

export function canTransition(from: string, to: string, mode: PurchaseMode = 'server_signed'): boolean {
  return transitionsFor(mode)[from]?.includes(to) ?? false;
}
