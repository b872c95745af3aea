import type { PurchaseViewRow } from '@starsgate/db';

export { purchaseView } from '@starsgate/domain';

export function statusUrl(purchaseId: string): string {
  return `/api/v1/purchases/${purchaseId}`;
}

export function acceptedView(row: Pick<PurchaseViewRow, 'id' | 'status'>) {
  return { purchase_id: row.id, status: row.status, status_url: statusUrl(row.id) };
}
