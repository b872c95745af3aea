import type { Client } from 'pg';

/** Every 202 the driver received has its row, and no row exists that the driver was not told about. */
export async function checkAcceptedRows(
  client: Client,
  accepted: Array<{ id: string; kind: 'purchase' | 'checkout' }>,
): Promise<string[]> {
  const { rows } = await client.query<{ id: string; mode: string }>('SELECT id, mode FROM purchases');
  const stored = new Map(rows.map((row) => [row.id, row.mode]));
  const problems: string[] = [];
  const missing = accepted.filter((order) => !stored.has(order.id));
  if (missing.length > 0) problems.push(`${missing.length} accepted order(s) without a row, e.g. ${missing[0]!.id}`);
  const acceptedIds = new Set(accepted.map((order) => order.id));
  const unknown = rows.filter((row) => !acceptedIds.has(row.id));
  if (unknown.length > 0) problems.push(`${unknown.length} row(s) the driver never received a 202 for`);
  const wrongMode = accepted.filter(
    (order) =>
      stored.has(order.id) && stored.get(order.id) !== (order.kind === 'purchase' ? 'server_signed' : 'client_signed'),
  );
  if (wrongMode.length > 0) problems.push(`${wrongMode.length} row(s) stored with the wrong mode`);
  return problems;
}
