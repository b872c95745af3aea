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

const PAYER_KEY_TAG = 'key:';

/**
 * A payer named by its public key (hex) among the payers the per-payer cap counts: a seed's orders
 * carry it from intake, while their wallet address may be known only once the worker resolves it
 * (docs/security.md, attack 19c).
 */
export function payerKeyIdentity(publicKeyHex: string): string {
  return `${PAYER_KEY_TAG}${publicKeyHex}`;
}

export function isPayerKeyIdentity(payer: string): boolean {
  return payer.startsWith(PAYER_KEY_TAG);
}

const OPEN = `status IN (${OPEN_UNPAID_STATUSES.map((status) => `'${status}'`).join(', ')})`;
// The live-row partial indexes' own predicate, so the planner serves both counts from them.
const LIVE = `status NOT IN ${TERMINAL_STATUS_LIST}`;

export class OpenOrders {
  constructor(private readonly db: Database) {}

  /**
   * Counts stop at the caps, so a busy table costs no more than `cap` rows per count. `payers` are
   * raw wallet addresses and `payerKeyIdentity`s: an order counts for the payer when either matches.
   */
  async count(payers: readonly string[], caps: { perPayer: number; total: number }): Promise<OpenOrderCounts> {
    const keys = payers
      .filter((payer) => payer.startsWith(PAYER_KEY_TAG))
      .map((payer) => payer.slice(PAYER_KEY_TAG.length));
    const addresses = payers.filter((payer) => !isPayerKeyIdentity(payer));
    const result = await this.db.$client.query<{ payer: number; total: number }>({
      name: 'open_unpaid_orders',
      text: `SELECT
        (SELECT count(*) FROM (SELECT 1 FROM purchases
          WHERE (wallet_address = ANY($1::text[]) OR payer_public_key = ANY($4::text[]))
          AND ${OPEN} AND ${LIVE} LIMIT $2) AS p)::int AS payer,
        (SELECT count(*) FROM (SELECT 1 FROM purchases WHERE ${OPEN} AND ${LIVE} LIMIT $3) AS t)::int AS total`,
      values: [addresses, caps.perPayer, caps.total, keys],
    });
    return result.rows[0]!;
  }
}
