import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** A position in a newest-first listing: the last row's creation time in µs since epoch (exact) and its id. */
export interface KeysetCursor {
  createdAtMicros: bigint;
  id: string;
}

/** A timestamp column in µs since epoch: JavaScript dates keep ms only, and rows of one ms must not be skipped. */
export function epochMicros(column: AnyColumn): SQL<string> {
  return sql<string>`(extract(epoch from ${column}) * 1000000)::bigint`;
}

/** Rows after `cursor` in (created_at, id) descending order: a row comparison that a (…, created_at, id) index serves. */
export function before(createdAt: AnyColumn, id: AnyColumn, cursor: KeysetCursor): SQL {
  return sql`(${createdAt}, ${id}) < (timestamptz 'epoch' + ${cursor.createdAtMicros.toString()}::bigint * interval '1 microsecond', ${cursor.id}::uuid)`;
}

/** Cuts a `limit + 1` read into its page and the cursor after it (null at the end). */
export function keysetPage<T>(
  found: readonly T[],
  limit: number,
  position: (entry: T) => { micros: string; id: string },
): { page: T[]; next: KeysetCursor | null } {
  const page = found.slice(0, limit);
  const last = page[page.length - 1];
  if (found.length <= limit || last === undefined) return { page, next: null };
  const { micros, id } = position(last);
  return { page, next: { createdAtMicros: BigInt(micros), id } };
}
