export type Row = Record<string, unknown>;

function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value.toString();
  return JSON.stringify(value);
}

/** A plain-text table for people: one header line, columns padded to their widest cell. */
export function table(rows: readonly Row[], columns: readonly string[]): string {
  if (rows.length === 0) return '(none)';
  const cells = rows.map((row) => columns.map((column) => cell(row[column])));
  const widths = columns.map((column, index) => Math.max(column.length, ...cells.map((line) => line[index]!.length)));
  const line = (values: readonly string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join('\n');
}

/** `key: value` lines for one object (nested values as JSON). */
export function fields(row: Row, keys: readonly string[] = Object.keys(row)): string {
  const width = Math.max(...keys.map((key) => key.length));
  return keys.map((key) => `${key.padEnd(width)}  ${cell(row[key])}`).join('\n');
}

/** One page of a listing: its rows as a table, and how to ask for the next page. */
export interface Page {
  data: Row[];
  next_cursor: string | null;
}

export function pageText(page: Page, columns: readonly string[]): string {
  return `${table(page.data, columns)}${page.next_cursor ? `\nmore: --cursor ${page.next_cursor}` : ''}`;
}
