import type { PurchaseViewRow } from '@starsgate/db';

export function statusUrl(purchaseId: string): string {
  return `/api/v1/purchases/${purchaseId}`;
}

export function acceptedView(row: Pick<PurchaseViewRow, 'id' | 'status'>) {
  return { purchase_id: row.id, status: row.status, status_url: statusUrl(row.id) };
}

/** The public shape of a purchase: never wallet secrets, never internal lease data. */
export function purchaseView(row: PurchaseViewRow) {
  const error = row.error as { code: string; message: string; action?: string; details?: unknown[] } | null;
  return {
    purchase_id: row.id,
    status: row.status,
    product: row.product,
    username: row.username,
    amount: row.amount,
    payment_method: row.paymentMethod,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(row.status === 'completed' && row.transactionHash ? { transaction_hash: row.transactionHash } : {}),
    ...((row.status === 'failed' || row.status === 'reconciliation_required') && error
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
