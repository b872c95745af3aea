import type { ApiSession } from './api-session';
import { assertPageUsable } from './api-session';
import { raiseBusinessError } from './business-errors';
import {
  parseHistoryMore,
  parseHistoryPage,
  type HistoryPage,
  type HistoryRow,
  type HistoryShape,
} from './history-parsing';
import { scalarText } from './json-values';
import { fragmentPack } from './products';
import type { FragmentProduct } from './types';

/**
 * Where older rows continue: what Fragment's page script sends for them, `type` from the history
 * page's state (empty when the page names none) and `offset_id` from the table foot's
 * `data-next-offset` (docs/fragment-protocol.md §17.2).
 */
export interface HistoryCursor {
  type: string;
  offsetId: string;
}

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
  /** Where older rows continue, when they do. */
  next?: HistoryCursor;
}

export interface HistoryReadOptions {
  /** Read further pages until a row older than this (unix ms) is seen. Default: the first page only. */
  since?: number;
  /** At most this many pages (default 5). */
  maxPages?: number;
  /**
   * Start at this cursor (an earlier read's `next`) with a "load more" request instead of the
   * history page: the rows older than those already read.
   */
  from?: HistoryCursor;
}

/**
 * GETs the history page (a logged-in page: a logged-out one is SESSION_INVALID), then, while the
 * rows read do not reach back to `since` and the table's foot offers more (`data-next-offset`),
 * loads older rows as Fragment's page script does: the product's "load more" method (routes.ts)
 * with `{type, offset_id}`, the rows from the answer's `body`, the next offset from its `foot`
 * (docs/fragment-protocol.md §17.2).
 */
export async function readHistory(
  api: ApiSession,
  product: FragmentProduct,
  options: HistoryReadOptions = {},
): Promise<HistoryRead> {
  const routes = fragmentPack(product);
  const loadMore = async (cursor: HistoryCursor): Promise<HistoryPage> => {
    const json = await api.read(product, routes.historyMore, { type: cursor.type, offset_id: cursor.offsetId });
    raiseBusinessError(json, routes.historyMore);
    return parseHistoryMore(product, json, routes.historyMore);
  };
  const read: HistoryPage[] = [];
  let type: string;
  if (options.from !== undefined) {
    type = options.from.type;
    read.push(await loadMore(options.from));
  } else {
    const page = await api.getPage(routes.history);
    const info = assertPageUsable(`GET ${routes.history}`, page, true);
    // Fragment's script sends the page state's `type`, an empty string when the page has none.
    type = scalarText(info.state.type) ?? '';
    read.push(parseHistoryPage(product, page.body));
  }
  const cursorAt = (offsetId: string | undefined): HistoryCursor | undefined =>
    offsetId !== undefined ? { type, offsetId } : undefined;
  const maxPages = options.maxPages ?? 5;
  for (;;) {
    const last = read[read.length - 1]!;
    const oldest = last.rows[last.rows.length - 1]?.deliveredAt;
    const reachesBack = options.since === undefined || (oldest !== undefined && oldest < options.since);
    const next = cursorAt(last.nextOffset);
    if (next === undefined || reachesBack || read.length >= maxPages || last.shape !== 'listed') break;
    read.push(await loadMore(next));
  }
  const unrecognized = read.find((p) => p.shape === 'unrecognized');
  const rows = read.flatMap((p) => p.rows);
  const next = cursorAt(read[read.length - 1]!.nextOffset);
  return {
    rows,
    shape: unrecognized ? 'unrecognized' : rows.length > 0 ? 'listed' : 'empty',
    ...(unrecognized?.problem !== undefined ? { problem: unrecognized.problem } : {}),
    pages: read.length,
    truncated: next !== undefined,
    ...(next !== undefined ? { next } : {}),
  };
}
