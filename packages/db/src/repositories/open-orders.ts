import type { Database } from '../database';
import { TERMINAL_STATUS_LIST } from '../sql/domain-lists';

/**
 * Orders accepted but not yet paid: each holds (or is about to hold) a Fragment order on the
 * operator's login. What the intake caps count (docs/security.md, attack 4).
 */
export const OPEN_UNPAID_STATUSES = ['queued', 'preparing', 'awaiting_signature'] as const;

export interface OpenOrderCounts {
  /** Open unpaid orders of these payer wallets, counted up to the per-payer cap. */
  payer: number;
  /** Open unpaid orders of every payer, counted up to the total cap. */
  total: number;
}

const OPEN = `status IN (${OPEN_UNPAID_STATUSES.map((status) => `'${status}'`).join(', ')})`;
// The live-row partial indexes' own predicate, so the planner serves both counts from them.
const LIVE = `status NOT IN ${TERMINAL_STATUS_LIST}`;

export class OpenOrders {
  constructor(private readonly db: Database) {}

  /** Counts stop at the caps, so a busy table costs no more than `cap` rows per count. */
  async count(payers: readonly string[], caps: { perPayer: number; total: number }): Promise<OpenOrderCounts> {
    const result = await this.db.$client.query<{ payer: number; total: number }>({
      name: 'open_unpaid_orders',
      text: `SELECT
        (SELECT count(*) FROM (SELECT 1 FROM purchases WHERE wallet_address = ANY($1::text[])
          AND ${OPEN} AND ${LIVE} LIMIT $2) AS p)::int AS payer,
        (SELECT count(*) FROM (SELECT 1 FROM purchases WHERE ${OPEN} AND ${LIVE} LIMIT $3) AS t)::int AS total`,
      values: [payers, caps.perPayer, caps.total],
    });
    return result.rows[0]!;
  }
}
