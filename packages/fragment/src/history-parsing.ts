/**
 * Fragment's purchase history (each pack's `history` page, protocol reference "Corrections and
 * evidence, 2026-11-23" and "…2026-11-26"): a table whose rows are Recipient | quantity | Price |
 * Date, the quantity cell read by the pack's `historyRows` reader (a count with separators, a
 * duration, or GRAM in an `.icon-ton` cell when the quantity is money); the date in
 * `time[datetime]`.
 *
 * Read tolerantly: cells are found by what a person sees in them (an @handle, a number, a
 * duration, a date, a `Ref#`), helped by the header's words when there is one, never by exact
 * class names. A data row that cannot be read, or a page with neither rows nor an empty-history
 * marker, makes the page `unrecognized`: the caller reports an upstream-format error instead of
 * reading it as "not delivered yet".
 */
import { parseHistoryDateText } from './history-dates';
import { htmlToText, unescapeHtml } from './html-parsing';
import { FRAGMENT_PRODUCT_NAMES, fragmentPack } from './products';
import type { FragmentProduct } from './types';

/** One delivered order as its history row shows it. */
export interface HistoryRow {
  /** The recipient's @handle, lower case without `@`, when the recipient cell shows one. */
  recipient?: string;
  /** The recipient cell's visible text. */
  recipientText: string;
  /** The quantity as the product's history reader reads it. */
  quantity: number;
  /** The order's `Ref#` code, when the row shows it. */
  ref?: string;
  /** Unix ms of `time[datetime]` (or a readable date cell). */
  deliveredAt: number;
  /** The row's visible text, cells separated by ` | `, for the audit trail. */
  text: string;
}

/** `listed`: rows read; `empty`: the history says it has none; `unrecognized`: an unknown shape. */
export type HistoryShape = 'listed' | 'empty' | 'unrecognized';

export interface HistoryPage {
  rows: HistoryRow[];
  shape: HistoryShape;
  /** Data rows that could not be read (each makes the page `unrecognized`). */
  unreadableRows: number;
  /** What could not be read, for the format error (first unreadable row's text). */
  problem?: string;
  /** The `data-next-offset` of a "load more" marker: older rows exist. */
  nextOffset?: string;
}

type Column = 'recipient' | 'quantity' | 'price' | 'date';

let headerWordsCache: Array<[Column, RegExp]> | undefined;

/** The header words of each column (a pack may name its quantity column): built on first use, as the packs import modules that import this one. */
function headerWords(): Array<[Column, RegExp]> {
  if (headerWordsCache) return headerWordsCache;
  const packWords = FRAGMENT_PRODUCT_NAMES.flatMap((name) => fragmentPack(name).historyRows.quantityHeader ?? []);
  headerWordsCache = [
    ['recipient', /recipient|^to$|user|username|gifted to|sent to/i],
    ['quantity', new RegExp([...packWords, 'quantity', 'amount', 'duration', 'period', 'months?'].join('|'), 'i')],
    ['price', /price|paid|cost|total/i],
    ['date', /date|time|when/i],
  ];
  return headerWordsCache;
}

const EMPTY_HISTORY =
  /\bno (?:purchases|transactions|orders|gifts|history|items)\b|\bnothing (?:here|yet|found)\b|\bempty\b/i;
const HANDLE = /^@?([A-Za-z0-9_]{3,32})$/;
const PRICE_MARKUP = /icon-(?:ton|usdt|usd|gram)\b|\$|&#0?36;|&dollar;/i;

interface Cell {
  html: string;
  text: string;
}

/** `<tr>` segments with their cells; tolerant of omitted closing tags. */
function tableRows(html: string): Array<{ header: boolean; cells: Cell[]; html: string }> {
  const rows: Array<{ header: boolean; cells: Cell[]; html: string }> = [];
  const parts = html.split(/<tr\b[^>]*>/i).slice(1);
  for (const part of parts) {
    const rowHtml = part.split(/<\/tr\s*>|<\/tbody\s*>|<\/table\s*>/i)[0] ?? '';
    const header = /<th\b/i.test(rowHtml) && !/<td\b/i.test(rowHtml);
    const cells = rowHtml
      .split(/<t[dh]\b[^>]*>/i)
      .slice(1)
      .map((cellHtml) => {
        const inner = cellHtml.split(/<\/t[dh]\s*>/i)[0] ?? '';
        // Blocks and spans are separate words on screen: keep them apart in the text.
        const spaced = inner.replace(/<\/?(?:div|p|li|br)\b[^>]*>/gi, ' $& ');
        return { html: inner, text: htmlToText(spaced).replace(/\s+/g, ' ').trim() };
      });
    rows.push({ header, cells, html: rowHtml });
  }
  return rows;
}

function columnsOf(headerCells: Cell[]): Map<Column, number> {
  const columns = new Map<Column, number>();
  headerCells.forEach((cell, index) => {
    const word = cell.text.trim();
    const column = headerWords().find(([, pattern]) => pattern.test(word))?.[0];
    if (column && !columns.has(column)) columns.set(column, index);
  });
  return columns;
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * How far ahead of now a date read from a cell's text may lie (clocks differ a little). Further
 * ahead, the text was not written in UTC (history-dates.ts): read on, a zone east of UTC would
 * make older deliveries look newer than the orders they are checked for.
 */
const TEXT_DATE_AHEAD_MS = 5 * 60_000;

/**
 * `time[datetime]`, else a date cell's text (history-dates.ts: the forms, and the UTC
 * assumption); a message when the text's date lies ahead of now, which disproves the assumption.
 */
function dateOf(
  rowHtml: string,
  cells: Cell[],
  dateColumn: number | undefined,
  now: number,
): number | string | undefined {
  const datetime = /<time\b[^>]*\bdatetime\s*=\s*["']([^"']+)["']/i.exec(rowHtml)?.[1];
  if (datetime !== undefined) {
    const at = Date.parse(unescapeHtml(datetime));
    if (Number.isFinite(at)) return at;
  }
  const candidates = dateColumn !== undefined ? [cells[dateColumn]] : [...cells].reverse();
  for (const cell of candidates) {
    if (!cell) continue;
    const text = cell.text.trim();
    const iso = ISO_WITH_ZONE.test(text) ? Date.parse(text) : NaN;
    if (Number.isFinite(iso)) return iso;
    const at = parseHistoryDateText(text, now);
    if (at === undefined) continue;
    if (at > now + TEXT_DATE_AHEAD_MS) return `date "${text}" lies ahead of now: not written in UTC`;
    return at;
  }
  return undefined;
}

function recipientOf(cell: Cell): { recipient?: string; recipientText: string } {
  const text = cell.text.trim();
  const handle = /@([A-Za-z0-9_]{3,32})\b/.exec(text)?.[1] ?? HANDLE.exec(text)?.[1];
  return { recipientText: text, ...(handle !== undefined ? { recipient: handle.toLowerCase() } : {}) };
}

/**
 * Whether a row this product cannot read is another product's row of the same history table
 * (products may share a history page): a quantity cell the other's reader reads.
 */
function sharesTableWith(product: FragmentProduct, cells: Cell[]): boolean {
  const table = fragmentPack(product).history.split('?')[0];
  return FRAGMENT_PRODUCT_NAMES.some(
    (other) =>
      other !== product &&
      fragmentPack(other).history.split('?')[0] === table &&
      cells.some((cell) => fragmentPack(other).historyRows.readQuantity(cell.text.trim()) !== undefined),
  );
}

function readRow(
  product: FragmentProduct,
  row: { cells: Cell[]; html: string },
  columns: Map<Column, number>,
  now: number,
): HistoryRow | string | null {
  const { cells } = row;
  const text = cells.map((cell) => cell.text.trim()).join(' | ');
  const { readQuantity: quantityOf, quantityName, quantityIsMoney } = fragmentPack(product).historyRows;
  // A top-up's quantity is itself GRAM: its cell is not skipped as the price.
  const isPrice = (cell: Cell) =>
    !quantityIsMoney && (PRICE_MARKUP.test(cell.html) || /\b(?:TON|GRAM|USDT)\b/.test(cell.text));
  let recipientIndex = columns.get('recipient');
  if (recipientIndex === undefined) {
    const byHandle = cells.findIndex((cell) => /@[A-Za-z0-9_]{3,}/.test(cell.text));
    recipientIndex = byHandle >= 0 ? byHandle : 0;
  }
  let quantityIndex = columns.get('quantity');
  if (quantityIndex === undefined || quantityOf(cells[quantityIndex]?.text ?? '') === undefined) {
    quantityIndex = cells.findIndex(
      (cell, index) => index !== recipientIndex && !isPrice(cell) && quantityOf(cell.text) !== undefined,
    );
  }
  const recipientCell = cells[recipientIndex];
  const quantity = quantityIndex >= 0 ? quantityOf(cells[quantityIndex]!.text) : undefined;
  const deliveredAt = dateOf(row.html, cells, columns.get('date'), now);
  if (!recipientCell || recipientCell.text.trim() === '') return `no recipient in "${text}"`;
  if (quantity === undefined) return sharesTableWith(product, cells) ? null : `no ${quantityName} in "${text}"`;
  if (deliveredAt === undefined) return `no date in "${text}"`;
  if (typeof deliveredAt === 'string') return `${deliveredAt} in "${text}"`;
  const ref = /Ref#\s*([A-Za-z0-9_-]+)/i.exec(text)?.[1];
  return {
    ...recipientOf(recipientCell),
    quantity,
    deliveredAt,
    text,
    ...(ref !== undefined ? { ref } : {}),
  };
}

/**
 * Reads one history page (a whole document, its AJAX `h`, or the rows of a "load more" answer);
 * `now` dates cells that show no year.
 */
export function parseHistoryPage(product: FragmentProduct, html: string, now = Date.now()): HistoryPage {
  const rows: HistoryRow[] = [];
  let columns = new Map<Column, number>();
  let unreadableRows = 0;
  let problem: string | undefined;
  let placeholders = 0;
  for (const row of tableRows(html)) {
    if (row.header) {
      columns = columnsOf(row.cells);
      continue;
    }
    // A lone cell (colspan) is a placeholder or "load more" row, not an order.
    if (row.cells.length < 2) {
      placeholders += 1;
      continue;
    }
    const read = readRow(product, row, columns, now);
    if (read === null) continue;
    if (typeof read === 'string') {
      unreadableRows += 1;
      problem ??= read;
    } else rows.push(read);
  }
  const nextOffset = nextOffsetIn(html);
  const page = { rows, unreadableRows, ...(nextOffset !== undefined ? { nextOffset } : {}) };
  if (unreadableRows > 0) return { ...page, shape: 'unrecognized', problem };
  if (rows.length > 0) return { ...page, shape: 'listed' };
  const visible = htmlToText(html);
  const emptyTable = /<table\b/i.test(html) && placeholders <= 1;
  if (EMPTY_HISTORY.test(visible) || emptyTable) return { ...page, shape: 'empty' };
  return { ...page, shape: 'unrecognized', problem: 'neither history rows nor an empty-history notice' };
}

/** The `data-next-offset` of a "load more" marker (the table's foot), when older rows exist. */
export function nextOffsetIn(html: string): string | undefined {
  const offset = /\bdata-next-offset\s*=\s*["']([^"']*)["']/i.exec(html)?.[1];
  return offset !== undefined && offset !== '' ? unescapeHtml(offset) : undefined;
}

/**
 * A "load more" answer as Fragment's page script reads it (docs/fragment-protocol.md §17.2):
 * `body` holds the rows it appends to the table, `foot` the table's new foot, whose
 * `data-next-offset` is where older rows continue (none: the history's end). Any other shape (an
 * `html` with a `next_offset`, say) is `unrecognized`: a format error, never "no more rows".
 */
export function parseHistoryMore(
  product: FragmentProduct,
  json: Record<string, unknown>,
  method: string,
  now = Date.now(),
): HistoryPage {
  const { body, foot } = json;
  if (typeof body !== 'string' || typeof foot !== 'string') {
    const keys = Object.keys(json).join(', ') || 'none';
    return {
      rows: [],
      shape: 'unrecognized',
      unreadableRows: 0,
      problem: `${method}: answer without the table's body and foot (keys: ${keys})`,
    };
  }
  const nextOffset = nextOffsetIn(foot);
  // An empty body is the end of the history, not an empty history.
  const more: HistoryPage =
    body.trim() === '' ? { rows: [], shape: 'listed', unreadableRows: 0 } : parseHistoryPage(product, body, now);
  return {
    rows: more.rows,
    shape: more.shape === 'empty' ? 'listed' : more.shape,
    unreadableRows: more.unreadableRows,
    ...(more.problem !== undefined ? { problem: more.problem } : {}),
    ...(nextOffset !== undefined ? { nextOffset } : {}),
  };
}
