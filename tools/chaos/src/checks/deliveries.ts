/**
 * From the Fragment simulator's own state (GET /admin/fragment/orders): every `completed` row's
 * order was delivered, and every delivered order belongs to a row that is `completed` or
 * `reconciliation_required` (delivered but never marked done is a case for a person, not a loss).
 */
import type pg from 'pg';

export interface DeliveriesReport {
  fragmentOrders: number;
  delivered: number;
  completedNotDelivered: string[];
  deliveredButNot: Array<{ ref: string; status: string }>;
  /** Payments the simulator itself saw arrive twice for one order. */
  simulatorDuplicatePayments: number;
}

export async function checkDeliveries(sandboxUrl: string, pool: pg.Pool): Promise<DeliveriesReport> {
  const response = await fetch(`${sandboxUrl}/admin/fragment/orders`);
  if (!response.ok) throw new Error(`simulator orders: HTTP ${response.status}`);
  const orders = (await response.json()) as Array<{ ref: string; status: string; extraPayments: unknown[] }>;
  const delivered = new Set(orders.filter((o) => o.status === 'done').map((o) => o.ref));
  const { rows } = await pool.query<{ id: string; status: string; fragment_ref: string | null }>(
    'SELECT id, status, fragment_ref FROM purchases',
  );
  const byRef = new Map(rows.filter((r) => r.fragment_ref).map((r) => [r.fragment_ref!, r]));
  return {
    fragmentOrders: orders.length,
    delivered: delivered.size,
    completedNotDelivered: rows
      .filter((r) => r.status === 'completed' && !(r.fragment_ref && delivered.has(r.fragment_ref)))
      .map((r) => r.id),
    deliveredButNot: [...delivered]
      .map((ref) => ({ ref, status: byRef.get(ref)?.status ?? 'no row' }))
      .filter((d) => d.status !== 'completed' && d.status !== 'reconciliation_required'),
    simulatorDuplicatePayments: orders.reduce((n, o) => n + o.extraPayments.length, 0),
  };
}
