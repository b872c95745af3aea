import type { HistoryCursor, HistoryRead, HistoryReadOptions } from './history-read';
import type { HistoryRow } from './history-parsing';

/** Reads the account's history through any session logged in to it (FragmentClient.deliveryHistory). */
export type HistoryReader = (options: HistoryReadOptions) => Promise<HistoryRead>;

export interface AccountHistoryOptions {
  /** Pages one look may read, new rows and older ones together. */
  maxPagesPerLook: number;
  /** Rows delivered longer ago than this are let go (no order still waiting can need them). */
  keepMs: number;
  now: () => number;
}

interface Kept {
  /** Every row delivered from `rows`' oldest to its newest, newest first. */
  rows: HistoryRow[];
  /** Where older rows continue; undefined at the history's end or once old rows were let go. */
  older?: HistoryCursor;
  /** Rows older than those kept were let go: an order from before them needs a read of its own. */
  letGo: boolean;
}

/**
 * One account's delivery history, kept between looks so that a look reads only what is new: the
 * history lists rows newest first and only ever adds rows on top, so a read from the top until a
 * row strictly older than the newest kept one holds every row delivered since (rows stamped at
 * that same instant included, whatever the cells' precision: a second, or a minute), and the kept rows older than it complete the picture. Reading the
 * whole history back to each order's time on every look instead costs a page per screenful of
 * rows, and stopping after a few pages missed the deliveries of busy accounts.
 *
 * A look that cannot join up with the kept rows (more new rows than its pages hold) or that reads
 * a page of unknown shape starts over from what it read; a shorter history only ever counts fewer
 * deliveries, never more. Looks run one at a time.
 */
export class AccountHistory {
  private kept: Kept | undefined;
  private running: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: AccountHistoryOptions) {}

  /** The account's rows from now back to `since` (further when already kept), newest first. */
  look(read: HistoryReader, since: number): Promise<HistoryRead> {
    const result = this.running.then(() => this.lookNow(read, since));
    this.running = result.catch(() => undefined);
    return result;
  }

  private async lookNow(read: HistoryReader, since: number): Promise<HistoryRead> {
    const budget = this.options.maxPagesPerLook;
    const kept = this.kept;
    const newestKept = kept?.rows[0]?.deliveredAt;
    if (kept === undefined || newestKept === undefined || (kept.letGo && kept.rows.at(-1)!.deliveredAt > since)) {
      const fresh = await read({ since, maxPages: budget });
      this.keep(fresh, false);
      return fresh;
    }

    const top = await read({ since: newestKept, maxPages: budget });
    if (top.shape === 'unrecognized') {
      this.kept = undefined;
      return top;
    }
    const joined = !top.truncated || top.rows.some((row) => row.deliveredAt < newestKept);
    if (!joined) {
      this.keep(top, false);
      return top;
    }
    const rows = [
      ...top.rows.filter((row) => row.deliveredAt >= newestKept),
      ...kept.rows.filter((row) => row.deliveredAt < newestKept),
    ];
    let pages = top.pages;
    let older = kept.older;
    let shape: HistoryRead['shape'] = rows.length > 0 ? 'listed' : 'empty';
    let problem: string | undefined;
    let offsetMoved = false;
    while (older !== undefined && rows.length > 0 && rows.at(-1)!.deliveredAt >= since && pages < budget) {
      const more = await read({ since, maxPages: budget - pages, from: older });
      pages += more.pages;
      if (more.shape === 'unrecognized') {
        shape = 'unrecognized';
        problem = more.problem;
        break;
      }
      // An offset names a row, so what follows it is older than every row kept. A newer row would
      // mean the offset moved with the rows added since (a position, not a row): those rows are
      // not added twice, and the next look that needs older rows reads them from the top.
      if ((more.rows[0]?.deliveredAt ?? -Infinity) > rows.at(-1)!.deliveredAt) {
        older = undefined;
        offsetMoved = true;
        break;
      }
      rows.push(...more.rows);
      older = more.next;
    }
    const merged: HistoryRead = {
      rows,
      shape,
      ...(problem !== undefined ? { problem } : {}),
      pages,
      truncated: older !== undefined || kept.letGo || offsetMoved,
      ...(older !== undefined ? { next: older } : {}),
    };
    if (shape === 'unrecognized') this.kept = undefined;
    else this.keep(merged, kept.letGo || offsetMoved);
    return merged;
  }

  private keep(read: HistoryRead, letGo: boolean): void {
    if (read.shape === 'unrecognized') {
      this.kept = undefined;
      return;
    }
    // A row without a readable date cannot vouch for a delivery after any time: it is not kept.
    const dated = read.rows.filter((row) => Number.isFinite(row.deliveredAt));
    const horizon = this.options.now() - this.options.keepMs;
    const rows = dated.filter((row) => row.deliveredAt >= horizon);
    const dropped = rows.length < dated.length;
    this.kept = {
      rows,
      ...(!dropped && read.next !== undefined ? { older: read.next } : {}),
      letGo: letGo || dropped,
    };
  }
}
