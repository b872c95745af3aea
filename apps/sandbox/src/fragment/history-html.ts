/**
 * The account's purchase history as Fragment shows it (protocol reference, "Corrections and
 * evidence, 2026-11-23", from public clients' parsers): a table per product of Recipient | its
 * quantity (a bare number with separators, or a duration such as `3 months`) | Price | Date, the
 * date in `time[datetime]`; no order phrase and no Ref#. Each pack words its own (products/*.ts).
 * The table's foot holds the "load more" marker (`data-next-offset`); older rows come from
 * `get…History {type, offset_id}` as `{body, foot}` (methods/history.ts). The `changed`
 * markup stands for a redesign no client knows yet.
 */
import type { FragmentFaults } from './config';
import { groupThousands } from './decimal';
import { escapeHtml } from './html';
import type { Order } from './orders';
import { tonValueHtml } from './page-parts';
import { allPacks, productPack } from './products/registry';
import type { Product } from './sessions';

export type HistoryMarkup = 'table' | 'changed';

export interface HistoryPageOrders {
  orders: Order[];
  nextOffset?: number;
}

function quantityText(order: Order): string {
  return productPack(order.product).history.quantityText(order);
}

/** The products whose rows a table lists (a pack may list another's rows in its table). */
export function tableProducts(table: Product): Product[] {
  return allPacks()
    .filter((pack) => pack.history.table === table)
    .map((pack) => pack.product);
}

function priceHtml(order: Order): string {
  return order.paymentMethod === 'ton'
    ? tonValueHtml(order.amountText).replace('class="tm-value', 'class="table-cell-value tm-value')
    : `<div class="table-cell-value tm-value icon-before icon-usdt">${escapeHtml(groupThousands(order.amountText))}</div>`;
}

function isoSeconds(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

function shownDate(ms: number): string {
  const date = new Date(ms);
  const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const time = date.toISOString().slice(11, 16);
  return `${date.getUTCDate()} ${month} ${date.getUTCFullYear()} at ${time}`;
}

/** A date cell without `datetime`, its text in UTC: `Jan 12 at 14:05`, another year `Dec 31, 2025 at 23:59`. */
function shortDateHtml(ms: number, now: number): string {
  const date = new Date(ms);
  const month = date.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  const time = date.toISOString().slice(11, 16);
  return date.getUTCFullYear() === new Date(now).getUTCFullYear()
    ? `<time class="short">${month} ${date.getUTCDate()} at ${time}</time>`
    : `<time class="short">${month} ${date.getUTCDate()}, ${date.getUTCFullYear()} at ${time}</time>`;
}

export interface HistoryRowsStyle {
  markup: HistoryMarkup;
  dates: FragmentFaults['historyDates'];
  now: number;
  /** Rows end with the order's `Ref#` (the `historyShowsRef` switch). */
  refs?: boolean;
}

/** How the configured faults have the history written at `now`. */
export function historyStyle(faults: FragmentFaults, now: number): HistoryRowsStyle {
  return { markup: faults.historyMarkup, dates: faults.historyDates, now, refs: faults.historyShowsRef };
}

/** The `<tr>` rows of a page (also the `body` of a "load more" answer). */
export function historyRowsHtml(orders: Order[], style: HistoryRowsStyle): string {
  return orders
    .map((o) => {
      const at = isoSeconds(o.statusAt);
      if (style.markup === 'changed') {
        return `<div class="tm-history-card"><div class="tm-history-card-who">${escapeHtml(o.username)}</div><div class="tm-history-card-what">${escapeHtml(quantityText(o))} ${productPack(o.product).history.cardUnit}</div><div class="tm-history-card-when" title="${at}">${escapeHtml(shownDate(o.statusAt))}</div></div>`;
      }
      const date =
        style.dates === 'text'
          ? shortDateHtml(o.statusAt, style.now)
          : `<time datetime="${at}" data-relative="text">${escapeHtml(shownDate(o.statusAt))}</time>`;
      const ref = style.refs ? refCellHtml(o) : '';
      const ownRow = productPack(o.product).history.rowHtml;
      if (ownRow) return ownRow(o, date).replace(/<\/tr>$/, `${ref}</tr>`);
      return `<tr class="tm-row-selectable"><td><div class="table-cell"><div class="table-cell-value tm-value tm-inline-nowrap">@${escapeHtml(o.username)}</div></div></td><td><div class="table-cell"><div class="table-cell-value tm-value tm-nowrap">${escapeHtml(quantityText(o))}</div></div></td><td><div class="table-cell">${priceHtml(o)}</div></td><td class="wide-last-col"><div class="table-cell"><div class="table-cell-value tm-value tm-nowrap">${date}</div></div></td>${ref}</tr>`;
    })
    .join('');
}

/** The order's `Ref#` in a last cell: no public source shows Fragment's history doing so (docs/fragment-protocol.md §17.2). */
function refCellHtml(order: Order): string {
  return `<td><div class="table-cell"><div class="table-cell-value tm-value tm-nowrap">Ref#${escapeHtml(order.ref)}</div></div></td>`;
}

/** The "load more" marker, where Fragment's page script reads `data-next-offset`. */
function loadMoreHtml(nextOffset: number | undefined): string {
  return nextOffset === undefined
    ? ''
    : `<div class="tm-load-more js-load-more-history" data-next-offset="${nextOffset}">Show more</div>`;
}

/** The table's foot (a "load more" answer's `foot`): the marker in a full-width row, or nothing at the end. */
export function historyFootHtml(nextOffset: number | undefined): string {
  return nextOffset === undefined ? '' : `<tr><td colspan="4">${loadMoreHtml(nextOffset)}</td></tr>`;
}

/** The history table of a page (or a state call's `history_html`): header, rows, foot with the "show more" marker. */
export function historyTableHtml(product: Product, page: HistoryPageOrders, style: HistoryRowsStyle): string {
  if (style.markup === 'changed') {
    return `<div class="tm-history-list">${historyRowsHtml(page.orders, style)}</div>${loadMoreHtml(page.nextOffset)}`;
  }
  const rows =
    historyRowsHtml(page.orders, style) ||
    '<tr><td colspan="4"><div class="table-cell tm-table-empty">No purchases yet</div></td></tr>';
  const header = productPack(product).history.headerHtml ?? '';
  return `<table class="table tm-table tm-table-fixed"><thead><tr>${header}</tr></thead><tbody class="js-history-list">${rows}</tbody><tfoot class="js-history-foot">${historyFootHtml(page.nextOffset)}</tfoot></table>`;
}
