import type { PurchaseViewRow } from '@starsgate/db';

export function statusUrl(purchaseId: string): string {
  return `/api/v1/purchases/${purchaseId}`;
}

export function acceptedView(row: Pick<PurchaseViewRow, 'id' | 'status'>) {
  return { purchase_id: row.id, status: row.status, status_url: statusUrl(row.id) };
}

type OutcomeRow = Pick<PurchaseViewRow, 'status' | 'transactionHash' | 'error'>;

/** The order a row describes, as every view shows it. */
export function orderFields(row: Pick<PurchaseViewRow, 'product' | 'username' | 'amount' | 'paymentMethod'>) {
  return { product: row.product, username: row.username, amount: row.amount, payment_method: row.paymentMethod };
}

/** How a row ended: `transaction_hash` once completed, `error` in one of `failedStatuses`. */
export function outcomeFields(row: OutcomeRow, failedStatuses: readonly string[]) {
  const error = row.error as { code: string; message: string; action?: string; details?: unknown[] } | null;
  return {
    ...(row.status === 'completed' && row.transactionHash ? { transaction_hash: row.transactionHash } : {}),
    ...(failedStatuses.includes(row.status) && error
      ? {
          error: {
            code: error.code,
            message: error.message,
            ...(error.action ? { action: error.action } : {}),
            ...(error.details ? { details: error.details } : {}),
          },
        }
      : {}),
  };
}

/** The public shape of a purchase: never wallet secrets, never internal lease data. */
export function purchaseView(row: PurchaseViewRow) {
  return {
    purchase_id: row.id,
    status: row.status,
    ...orderFields(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...outcomeFields(row, ['failed', 'reconciliation_required']),
  };
}
