import type { ApiSession } from './api-session';
import { assertPageUsable } from './api-session';
import { raiseBusinessError } from './business-errors';
import { parseHistoryPage, type HistoryPage, type HistoryRow, type HistoryShape } from './history-parsing';
import { scalarText } from './json-values';
import { ROUTES } from './routes';
import type { FragmentProduct } from './types';

/** The account's history of one product as far back as a read went. */
export interface HistoryRead {
  /** Newest first, as Fragment lists them. */
  rows: HistoryRow[];
  /** `unrecognized` if any page read had an unknown shape. */
  shape: HistoryShape;
  /** What could not be read (an `unrecognized` read). */
  problem?: string;
  /** Pages read (the page itself and each "load more" answer). */
  pages: number;
  /** Older rows exist beyond those read. */
  truncated: boolean;
  /** Where older rows continue (the last page's `data-next-offset`), when they do. */
  nextOffset?: string;
}

export interface HistoryReadOptions {
  /** Read further pages until a row older than this (unix ms) is seen. Default: the first page only. */
  since?: number;
  /** At most this many pages (default 5). */
  maxPages?: number;
  /**
   * Start at this offset (an earlier read's `nextOffset`) with a "load more" request instead of
   * the history page: the rows older than those already read.
   */
  fromOffset?: string;
}

/**
 * GETs the history page (a logged-in page: a logged-out one is SESSION_INVALID), then, while the
 * rows read do not reach back to `since` and the page offers more (`data-next-offset`), asks
 * `get…History` with `offset_id` for older rows (docs/fragment-protocol.md §5.3: the answer's `html` holds the rows,
 * its `next_offset` or a marker in them the next offset).
 */
export async function readHistory(
  api: ApiSession,
  product: FragmentProduct,
  options: HistoryReadOptions = {},
): Promise<HistoryRead> {
  const routes = ROUTES[product];
  const loadMore = async (offset: string): Promise<HistoryPage> => {
    const json = await api.read(product, routes.historyMore, { offset_id: offset });
    raiseBusinessError(json, routes.historyMore);
    const html = typeof json.html === 'string' ? json.html : undefined;
    if (html === undefined)
      return { rows: [], shape: 'unrecognized', unreadableRows: 0, problem: `${routes.historyMore}: no html` };
    const more = parseHistoryPage(product, html);
    const next = scalarText(json.next_offset) ?? more.nextOffset;
    // An empty "load more" answer is the end of the history, not an empty history.
    return { ...more, shape: more.shape === 'empty' ? 'listed' : more.shape, nextOffset: next || undefined };
  };
  const read: HistoryPage[] = [];
  if (options.fromOffset !== undefined) read.push(await loadMore(options.fromOffset));
  else {
    const page = await api.getPage(routes.history);
    assertPageUsable(`GET ${routes.history}`, page, true);
    read.push(parseHistoryPage(product, page.body));
  }
  const maxPages = options.maxPages ?? 5;
  for (;;) {
    const last = read[read.length - 1]!;
    const oldest = last.rows[last.rows.length - 1]?.deliveredAt;
    const reachesBack = options.since === undefined || (oldest !== undefined && oldest < options.since);
    if (last.nextOffset === undefined || reachesBack || read.length >= maxPages || last.shape !== 'listed') break;
    read.push(await loadMore(last.nextOffset));
  }
  const unrecognized = read.find((p) => p.shape === 'unrecognized');
  const rows = read.flatMap((p) => p.rows);
  const nextOffset = read[read.length - 1]!.nextOffset;
  return {
    rows,
    shape: unrecognized ? 'unrecognized' : rows.length > 0 ? 'listed' : 'empty',
    ...(unrecognized?.problem !== undefined ? { problem: unrecognized.problem } : {}),
    pages: read.length,
    truncated: nextOffset !== undefined,
    ...(nextOffset !== undefined ? { nextOffset } : {}),
  };
}
