export function age(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return '—';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
  return `${Math.floor(seconds / 86_400)} d ${Math.floor((seconds % 86_400) / 3600)} h`;
}

export function time(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return date.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'medium' });
}

export function since(iso: string | null | undefined): string {
  if (!iso) return '—';
  return `${age((Date.now() - new Date(iso).getTime()) / 1000)} ago`;
}

/** A long hash or address, shortened for a table cell (the full value in the title). */
export function short(value: string | null | undefined, keep = 8): string {
  if (!value) return '—';
  return value.length <= keep * 2 + 1 ? value : `${value.slice(0, keep)}…${value.slice(-keep)}`;
}

export const STATUS_ORDER = [
  'queued',
  'preparing',
  'sending',
  'submitted',
  'confirming',
  'reconciliation_required',
  'completed',
  'failed',
];

/**
 * An order line for people, whatever its product: `<product> · 10 winners × 3 months`. From the
 * row's `quantities` (its `amount` where a row predates them).
 */
export function orderLine(row: { product: string; amount: number; quantities?: Record<string, number> }): string {
  const quantities = Object.entries(row.quantities ?? {});
  if (quantities.length === 0) return `${row.product} × ${row.amount}`;
  return `${row.product} · ${quantities.map(([name, value]) => `${value.toLocaleString('en-US')} ${name}`).join(' × ')}`;
}
