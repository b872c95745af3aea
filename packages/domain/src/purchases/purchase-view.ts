import { rowQuantities } from '../products/order-line';

/** The purchase columns the public view reads (a `purchases` row or a webhook event's snapshot of one). */
export interface PurchaseViewSource {
  id: string;
  status: string;
  product: string;
  username: string;
  amount: number;
  /** The order line (null/absent on rows and snapshots from before order lines: `amount` gives it). */
  orderLine?: unknown;
  paymentMethod: string;
  transactionHash: string | null;
  error: unknown;
  createdAt: Date;
  updatedAt: Date;
}

/** The order a row describes, as every view (purchase or checkout) shows it. */
export function orderFields(
  row: Pick<PurchaseViewSource, 'product' | 'username' | 'amount' | 'orderLine' | 'paymentMethod'>,
) {
  return {
    product: row.product,
    username: row.username,
    amount: row.amount,
    quantities: rowQuantities(row),
    payment_method: row.paymentMethod,
  };
}

/** How a row ended: `transaction_hash` once completed, `error` in one of `failedStatuses`. */
export function outcomeFields(
  row: Pick<PurchaseViewSource, 'status' | 'transactionHash' | 'error'>,
  failedStatuses: readonly string[],
) {
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

/** The public shape of a purchase (GET /api/v1/purchases/:id): never wallet secrets, never internal lease data. */
export function purchaseView(row: PurchaseViewSource) {
  return {
    purchase_id: row.id,
    status: row.status,
    ...orderFields(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...outcomeFields(row, ['failed', 'reconciliation_required']),
  };
}

export type PurchaseView = ReturnType<typeof purchaseView>;
