import { OrderFailedError, TopUpRequiredError } from './core/errors.js';
import type { Checkout, CheckoutStatus, Outcome, Purchase, PurchaseStatus } from './types.js';

const TERMINAL = new Set<string>(['completed', 'failed', 'expired', 'reconciliation_required']);

export const RECONCILIATION_ADVICE =
  'The outcome is uncertain (money may have left the wallet): do not create a replacement order. The service keeps checking the chain; an operator settles the case.';

/** Statuses are lowercase: `'completed'`, never `'COMPLETED'`. */
export function isTerminal(status: PurchaseStatus | CheckoutStatus): boolean {
  return TERMINAL.has(status);
}
export function isCompleted(status: PurchaseStatus | CheckoutStatus): boolean {
  return status === 'completed';
}
export function needsReconciliation(status: PurchaseStatus | CheckoutStatus): boolean {
  return status === 'reconciliation_required';
}

export function outcomeOf(order: Purchase | Checkout): Outcome {
  return {
    replacementAllowed: order.status === 'failed' || order.status === 'expired',
    advice: needsReconciliation(order.status) ? RECONCILIATION_ADVICE : (order.error?.action ?? null),
  };
}

/**
 * Throws the typed error of a failed (or expired) order: TopUpRequiredError with the shortfall,
 * else OrderFailedError. `reconciliation_required` does not throw: it is not a failure and must
 * never be replaced.
 */
export function throwIfFailed(order: Purchase | Checkout): void {
  if ((order.status !== 'failed' && order.status !== 'expired') || !order.error) return;
  const { code, message, action } = order.error;
  const fields = { code, action, details: order.error.details ?? [] };
  if (code === 'TOP_UP_REQUIRED') throw new TopUpRequiredError(message, fields);
  throw new OrderFailedError(message, fields);
}
