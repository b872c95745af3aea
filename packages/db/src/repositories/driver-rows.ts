import { getTableColumns } from 'drizzle-orm';
import { purchases, signedExternals, type PurchaseRow, type SignedExternalRow } from '../schema';

type DriverColumns = ReadonlyArray<readonly [string, { name: string; mapFromDriverValue(value: unknown): unknown }]>;

/** Maps a raw row (snake_case, driver types) with Drizzle's own column decoders. */
export function decodeRow<T>(columns: DriverColumns, raw: Record<string, unknown>): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}

const PURCHASE_COLUMNS = Object.entries(getTableColumns(purchases));
const SIGNED_EXTERNAL_COLUMNS = Object.entries(getTableColumns(signedExternals));

/** A `purchases` row as the driver returns it from raw SQL (`RETURNING *`), typed like Drizzle's. */
export function fromDriverRow(raw: Record<string, unknown>): PurchaseRow {
  return decodeRow<PurchaseRow>(PURCHASE_COLUMNS, raw);
}

/** A `signed_externals` row as the driver returns it. */
export function signedExternalFromDriverRow(raw: Record<string, unknown>): SignedExternalRow {
  return decodeRow<SignedExternalRow>(SIGNED_EXTERNAL_COLUMNS, raw);
}
