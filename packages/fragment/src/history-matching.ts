import type { HistoryRow } from './history-parsing';
import type { FragmentProduct } from './types';

/** The `recipient#quantity` key a history row is filed under; undefined when it shows no @handle. */
export function historyKey(row: Pick<HistoryRow, 'recipient' | 'quantity'>): string | undefined {
  return row.recipient !== undefined ? `${row.recipient}#${row.quantity}` : undefined;
}

/** The key a history row naming this order is filed under (the quantity as the pack's history reader reads it). */
export function orderHistoryKeys(order: { product: FragmentProduct; username: string; amount: number }): string[] {
  return [`${order.username.replace(/^@/, '').toLowerCase()}#${order.amount}`];
}
