import { sql } from 'drizzle-orm';
import { OPEN_STATUSES, type PurchaseStatus } from '@starsgate/domain';
import type { Database } from '../database';
import { decodePurchaseStatus } from '../schema';

/**
 * One status a purchase can still be waiting in (the domain's OPEN_STATUSES, an operator's case
 * included): how many rows, and the one waiting longest.
 */
export interface OpenStatusStat {
  status: PurchaseStatus;
  count: number;
  oldestId: string | null;
  /** When the longest-waiting row entered this status. */
  oldestSince: Date | null;
}

export interface ThroughputMinute {
  /** Start of the minute. */
  minute: Date;
  completed: number;
  failed: number;
}

export interface WalletInFlight {
  walletAddress: string;
  leaseOwner: string;
  leaseExpiresAt: Date;
  /** Purchases of this wallet in sending, submitted or confirming. */
  purchases: number;
}

/** Rows of a pg `execute`, typed. */
const rowsOf = <T>(result: { rows: unknown[] }): T[] => result.rows as T[];

/**
 * What the pipeline looks like right now, for the worker's gauges and the dashboard. Every query
 * stays on the live-row and finished-row partial indexes, so its cost follows the work in flight,
 * not the table's history.
 */
export class PipelineReads {
  constructor(private readonly db: Database) {}

  async openStatuses(): Promise<OpenStatusStat[]> {
    const result = await this.db.execute(sql`
      SELECT DISTINCT ON (status) status, count(*) OVER (PARTITION BY status)::int AS count,
             id AS oldest_id, step_started_at AS oldest_since
        FROM purchases
       WHERE status IN (${sql.join(
         OPEN_STATUSES.map((status) => sql`${status}`),
         sql`, `,
       )})
       ORDER BY status, step_started_at, id`);
    return rowsOf<{ status: string; count: number; oldest_id: string; oldest_since: Date | string }>(result).map(
      (row) => ({
        status: decodePurchaseStatus(row.status),
        count: row.count,
        oldestId: row.oldest_id,
        oldestSince: new Date(row.oldest_since),
      }),
    );
  }

  /** Completions and failures per minute over the last `minutes` minutes, oldest first, gaps as zeros. */
  async throughput(minutes = 60): Promise<ThroughputMinute[]> {
    const result = await this.db.execute(sql`
      SELECT series.minute,
             count(p.id) FILTER (WHERE p.status = 'completed')::int AS completed,
             count(p.id) FILTER (WHERE p.status = 'failed')::int AS failed
        FROM generate_series(date_trunc('minute', now()) - make_interval(mins => ${minutes - 1}),
                             date_trunc('minute', now()), interval '1 minute') AS series(minute)
        LEFT JOIN purchases p
          ON p.completed_at >= series.minute AND p.completed_at < series.minute + interval '1 minute'
       GROUP BY series.minute
       ORDER BY series.minute`);
    return rowsOf<{ minute: Date | string; completed: number; failed: number }>(result).map((row) => ({
      minute: new Date(row.minute),
      completed: row.completed,
      failed: row.failed,
    }));
  }

  /** Wallets whose sender lease is held now: one transaction in flight each. */
  async walletsInFlight(): Promise<WalletInFlight[]> {
    const result = await this.db.execute(sql`
      SELECT substr(l.name, 8) AS wallet_address, l.owner AS lease_owner, l.expires_at AS lease_expires_at,
             (SELECT count(*)::int FROM purchases p
               WHERE p.wallet_address = substr(l.name, 8)
                 AND p.status IN ('sending', 'submitted', 'confirming')) AS purchases
        FROM leases l
       WHERE l.name LIKE 'wallet:%' AND l.expires_at > now()
       ORDER BY l.expires_at`);
    return rowsOf<{ wallet_address: string; lease_owner: string; lease_expires_at: Date | string; purchases: number }>(
      result,
    ).map((row) => ({
      walletAddress: row.wallet_address,
      leaseOwner: row.lease_owner,
      leaseExpiresAt: new Date(row.lease_expires_at),
      purchases: row.purchases,
    }));
  }

  /** Webhook deliveries not (yet) delivered, by state (`pending`, `failed`). */
  async undeliveredWebhooks(): Promise<Record<'pending' | 'failed', number>> {
    const result = await this.db.execute(sql`
      SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending,
             count(*) FILTER (WHERE state = 'failed')::int AS failed
        FROM webhook_deliveries WHERE state <> 'delivered'`);
    return rowsOf<{ pending: number; failed: number }>(result)[0] ?? { pending: 0, failed: 0 };
  }
}
