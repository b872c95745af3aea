import { CHECKOUT_ONLY_STATUSES, CHECKOUT_STATUSES } from './checkout-status';

/** Purchase statuses (spec: states and transitions), of every purchase mode. */
export const PURCHASE_STATUSES = [
  'queued',
  'preparing',
  'sending',
  'submitted',
  'confirming',
  'completed',
  'failed',
  'reconciliation_required',
  ...CHECKOUT_ONLY_STATUSES,
] as const;
export type PurchaseStatus = (typeof PURCHASE_STATUSES)[number];

/** Whether a string from outside the types (a request, a test) is one of the statuses. */
export function isPurchaseStatus(value: string): value is PurchaseStatus {
  return (PURCHASE_STATUSES as readonly string[]).includes(value);
}

/**
 * How a purchase is paid: `server_signed`, the service signs with the seed the client sent;
 * `client_signed`, a checkout the buyer's own wallet signs (no secret ever reaches the service).
 * Each mode has its own lifecycle (PURCHASE_LIFECYCLES); rows of every mode share one table.
 */
export const PURCHASE_MODES = ['server_signed', 'client_signed'] as const;
export type PurchaseMode = (typeof PURCHASE_MODES)[number];

/** Whether a string from outside the types is one of the purchase modes. */
export function isPurchaseMode(value: string): value is PurchaseMode {
  return (PURCHASE_MODES as readonly string[]).includes(value);
}

/** The statuses of one purchase mode and the moves between them. */
export interface PurchaseLifecycle {
  /** Its statuses, in the order a purchase meets them. */
  statuses: readonly PurchaseStatus[];
  /**
   * The moves the worker makes. A status with none is terminal: the worker never touches the
   * row again. A status listed among its own moves records a step outcome without a move.
   */
  workerMoves: Readonly<Partial<Record<PurchaseStatus, readonly PurchaseStatus[]>>>;
  /** Moves only an operator makes (resolving an uncertain outcome); never the worker. */
  operatorMoves: Readonly<Partial<Record<PurchaseStatus, readonly PurchaseStatus[]>>>;
  /**
   * Moves out of a terminal status that only proof on chain makes: a verdict reached before the
   * payment could be seen is corrected (a late /submitted of a checkout payment that landed).
   * They do not make the status live: nothing moves it on by itself.
   */
  chainProofMoves?: Readonly<Partial<Record<PurchaseStatus, readonly PurchaseStatus[]>>>;
}

/**
 * The service signs and pays. `failed` is only reachable from a state where no money can have
 * left the wallet, or with proof of non-execution (checked by the state machine, not here).
 */
export const SERVER_SIGNED_LIFECYCLE = {
  statuses: PURCHASE_STATUSES.filter((status) => !(CHECKOUT_ONLY_STATUSES as readonly string[]).includes(status)),
  workerMoves: {
    queued: ['preparing', 'failed'],
    preparing: ['preparing', 'sending', 'failed'],
    sending: ['submitted', 'failed', 'reconciliation_required'],
    submitted: ['confirming', 'failed', 'reconciliation_required'],
    confirming: ['completed', 'failed', 'reconciliation_required'],
  },
  operatorMoves: { reconciliation_required: ['completed', 'failed'] },
} as const satisfies PurchaseLifecycle;

/**
 * A checkout: the service prepares the order and the transaction, the buyer's wallet signs it.
 * `awaiting_signature` moves on when a signed BOC is accepted (from /submitted, or found on chain
 * by the worker's watch); `expired` when nothing was paid before valid_until, checked on chain.
 */
export const CLIENT_SIGNED_LIFECYCLE = {
  statuses: CHECKOUT_STATUSES,
  workerMoves: {
    preparing: ['preparing', 'awaiting_signature', 'failed'],
    awaiting_signature: ['submitted', 'expired', 'reconciliation_required'],
    submitted: ['confirming', 'failed', 'reconciliation_required'],
    confirming: ['completed', 'failed', 'reconciliation_required'],
  },
  operatorMoves: { reconciliation_required: ['completed', 'failed'] },
  chainProofMoves: { expired: ['submitted'] },
} as const satisfies PurchaseLifecycle;

export const PURCHASE_LIFECYCLES: Readonly<Record<PurchaseMode, PurchaseLifecycle>> = {
  server_signed: SERVER_SIGNED_LIFECYCLE,
  client_signed: CLIENT_SIGNED_LIFECYCLE,
};

/** The statuses of `lifecycle` the worker never moves from. */
export function terminalStatusesOf(lifecycle: PurchaseLifecycle): PurchaseStatus[] {
  return lifecycle.statuses.filter((status) => (lifecycle.workerMoves[status] ?? []).length === 0);
}

/**
 * The statuses terminal in every mode that has them, in PURCHASE_STATUSES order: what the SQL
 * status lists (live-row indexes, claims, the sweeper, secret destruction) are built from.
 */
export const TERMINAL_STATUSES: readonly PurchaseStatus[] = PURCHASE_STATUSES.filter((status) =>
  Object.values(PURCHASE_LIFECYCLES).every(
    (lifecycle) => !lifecycle.statuses.includes(status) || terminalStatusesOf(lifecycle).includes(status),
  ),
);

/** Whether the worker never moves a purchase in `status` again (false for a string that is no status). */
export function isTerminalStatus(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

/** Whether anyone (the worker or an operator) may move a purchase of `mode` from `from` to `to`. */
export function canTransition(from: PurchaseStatus, to: PurchaseStatus, mode: PurchaseMode = 'server_signed'): boolean {
  const lifecycle = PURCHASE_LIFECYCLES[mode];
  return (
    canWorkerMove(from, to, mode) ||
    (lifecycle.operatorMoves[from] ?? []).includes(to) ||
    (lifecycle.chainProofMoves?.[from] ?? []).includes(to)
  );
}

/** Whether the worker may move a purchase of `mode` from `from` to `to`. */
export function canWorkerMove(from: PurchaseStatus, to: PurchaseStatus, mode: PurchaseMode = 'server_signed'): boolean {
  return (PURCHASE_LIFECYCLES[mode].workerMoves[from] ?? []).includes(to);
}

/**
 * Whether an operator may move a purchase of `mode` from `from` to `to` (resolving a case the
 * worker could not decide). Rows arrive typed; a string that is no status or mode is no move.
 */
export function canOperatorMove(from: string, to: string, mode: string = 'server_signed'): boolean {
  if (!isPurchaseMode(mode) || !isPurchaseStatus(from) || !isPurchaseStatus(to)) return false;
  return (PURCHASE_LIFECYCLES[mode].operatorMoves[from] ?? []).includes(to);
}

/** The statuses of `mode` an operator may move a purchase out of, in lifecycle order. */
export function operatorResolvableStatuses(mode: string = 'server_signed'): PurchaseStatus[] {
  if (!isPurchaseMode(mode)) return [];
  const lifecycle = PURCHASE_LIFECYCLES[mode];
  return lifecycle.statuses.filter((status) => (lifecycle.operatorMoves[status] ?? []).length > 0);
}

/** A write that would move a purchase along a move its lifecycle does not have: a bug, never bad input. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    readonly mode: string,
  ) {
    super(`a ${mode} purchase cannot move from ${from} to ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/**
 * Throws IllegalTransitionError unless the worker may move a purchase of `mode` from `from` to
 * `to`. Staying in a status is not a move; a string that is no status or mode is no move.
 */
export function assertWorkerMove(from: string, to: string, mode: string = 'server_signed'): void {
  if (from === to) return;
  const known = isPurchaseMode(mode) && isPurchaseStatus(from) && isPurchaseStatus(to);
  if (!known || !canWorkerMove(from, to, mode)) throw new IllegalTransitionError(from, to, mode);
}

/**
 * Throws IllegalTransitionError unless an operator (or the evidence collector on an operator's
 * terms) may move a purchase of `mode` from `from` to `to`.
 */
export function assertOperatorMove(from: string, to: string, mode: string = 'server_signed'): void {
  if (!canOperatorMove(from, to, mode)) throw new IllegalTransitionError(from, to, mode);
}
