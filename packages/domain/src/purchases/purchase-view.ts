/** The purchase columns the public view reads (a `purchases` row or a webhook event's snapshot of one). */
export interface PurchaseViewSource {
  id: string;
  status: string;
  product: string;
  username: string;
  amount: number;
  paymentMethod: string;
  transactionHash: string | null;
  error: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** The public shape of a purchase (GET /api/v1/purchases/:id): never wallet secrets, never internal lease data. */
export function purchaseView(row: PurchaseViewSource) {
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

export type PurchaseView = ReturnType<typeof purchaseView>;
