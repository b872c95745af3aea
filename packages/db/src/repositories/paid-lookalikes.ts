import type { Database } from '../database';
import type { PurchaseRow } from '../schema';
import { PAID_LOOKALIKES } from '../sql/paid-lookalikes';

/** Orders that look alike in Fragment's history: same recipient (case-insensitive), product and quantity. */
export function lookalikeKey(order: { product: string; username: string; amount: number }): string {
  return `${order.username.toLowerCase()}|${order.product}|${order.amount}`;
}

/** A paid look-alike of an order: when it was created and, once it was, completed, and on which Fragment account. */
export interface PaidLookalike {
  createdAt: Date;
  completedAt: Date | null;
  /** The Fragment account it was made on; absent or null when unknown (stored before it was recorded). */
  account?: string | null;
}

/** A paid look-alike as read from the table: which purchase it is. */
export interface StoredLookalike extends PaidLookalike {
  id: string;
}

/**
 * The look-alikes whose rows may be in one account's history: those made on that account, and
 * those whose account is unknown (counted everywhere, so an old row never vouches for a new order).
 * Without an account (none to scope to), all of them.
 */
export function lookalikesOnAccount<T extends Pick<PaidLookalike, 'account'>>(
  lookalikes: readonly T[],
  account: string | undefined,
): T[] {
  return account === undefined ? [...lookalikes] : lookalikes.filter((l) => !l.account || l.account === account);
}

/**
 * How far back an uncompleted paid look-alike is still expected to be delivered by Fragment. An
 * order created before a purchase but delivered after it adds a history row in that purchase's
 * window, so it must be counted, or its row would vouch for the purchase too.
 */
export const LOOKALIKE_OPEN_LOOKBACK_MS = 24 * 60 * 60_000;

/** Where a delivery check counts from, and how many of our paid look-alikes it must find there. */
export interface LookalikeWindow {
  since: Date;
  count: number;
}

/**
 * The window a history count must cover so that every row in it belongs to a look-alike counted
 * in it. A row is stamped no later than its delivery, which is no later than our completion, so an
 * earlier look-alike that was still open (or completed) at the window's start may have its row in
 * the window: the window then opens at that look-alike's creation (less the clock skew), where its
 * row must lie, and the rule repeats until no earlier look-alike was open at the start (those older
 * than the lookback aside). Every look-alike created since the start is counted.
 */
export function lookalikeWindow(lookalikes: readonly PaidLookalike[], since: Date, skewMs: number): LookalikeWindow {
  const oldest = since.getTime() - LOOKALIKE_OPEN_LOOKBACK_MS;
  let start = since.getTime();
  for (;;) {
    const openAtStart = lookalikes.filter(
      (l) =>
        l.createdAt.getTime() < start &&
        l.createdAt.getTime() >= oldest &&
        (l.completedAt === null || l.completedAt.getTime() >= start),
    );
    if (openAtStart.length === 0) break;
    start = Math.min(...openAtStart.map((l) => l.createdAt.getTime())) - skewMs;
  }
  return { since: new Date(start), count: lookalikes.filter((l) => l.createdAt.getTime() >= start).length };
}

/** Our paid orders that look alike in Fragment's history, which a delivery check must count. */
export class PaidLookalikes {
  constructor(private readonly db: Database) {}

  /**
   * Our paid, not failed purchases of the same product and quantity for the same recipient, and
   * the window a history count must cover for them (`lookalikeWindow`): a history that names the
   * recipient and quantity but not the order can be trusted only when it holds at least `count`
   * matching rows since the window's start.
   */
  async windowFor(
    order: Pick<PurchaseRow, 'product' | 'username' | 'amount'>,
    since: Date,
    skewMs: number,
    account?: string,
  ): Promise<LookalikeWindow> {
    const lookalikes = (await this.since([order], since)).get(lookalikeKey(order)) ?? [];
    return lookalikeWindow(lookalikesOnAccount(lookalikes, account), since, skewMs);
  }

  /**
   * The paid look-alikes of many orders with one query, by order key (`lookalikeKey`): every one
   * created since a day before `since`, so callers count per purchase with `lookalikeWindow`.
   */
  async since(
    orders: ReadonlyArray<Pick<PurchaseRow, 'product' | 'username' | 'amount'>>,
    since: Date,
  ): Promise<Map<string, StoredLookalike[]>> {
    const byKey = new Map<string, StoredLookalike[]>();
    if (orders.length === 0) return byKey;
    const result = await this.db.$client.query<{
      id: string;
      username: string;
      product: string;
      amount: number;
      created_at: Date;
      completed_at: Date | null;
      fragment_account: string | null;
    }>({
      ...PAID_LOOKALIKES,
      values: [
        orders.map((o) => o.username.toLowerCase()),
        orders.map((o) => o.product),
        orders.map((o) => o.amount),
        new Date(since.getTime() - LOOKALIKE_OPEN_LOOKBACK_MS).toISOString(),
      ],
    });
    for (const row of result.rows) {
      const key = lookalikeKey(row);
      const lookalike: StoredLookalike = {
        id: row.id,
        createdAt: new Date(row.created_at),
        completedAt: row.completed_at === null ? null : new Date(row.completed_at),
        account: row.fragment_account,
      };
      byKey.set(key, [...(byKey.get(key) ?? []), lookalike]);
    }
    return byKey;
  }
}
