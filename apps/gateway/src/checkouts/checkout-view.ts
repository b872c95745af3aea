import type { PurchaseRow } from '@starsgate/db';

export { checkoutView } from '@starsgate/domain';

export function checkoutStatusUrl(checkoutId: string): string {
  return `/api/v1/checkouts/${checkoutId}`;
}

export function acceptedCheckoutView(row: Pick<PurchaseRow, 'id' | 'status'>) {
  return { checkout_id: row.id, status: row.status, status_url: checkoutStatusUrl(row.id) };
}
