import { sql } from 'drizzle-orm';
import type { Database } from '../database';

export interface HeldLease {
  name: string;
  owner: string;
  fence: number;
}

/**
 * Takes lease `name` for `owner` for `ttlMs` if it is free, expired or already `owner`'s, with a
 * new fence, `RETURNING fence` (no row: someone else holds it). The arguments are the caller's
 * placeholders, so a larger statement can take a lease too (PurchaseTransitions.enterWalletSender).
 * A conflicting row is locked either way (ON CONFLICT DO UPDATE locks the row it finds).
 */
export function acquireLeaseSql(name: string, owner: string, ttlMs: string): string {
  return `INSERT INTO leases (name, owner, fence, expires_at)
      VALUES (${name}::text, ${owner}::text, 1, now() + ${ttlMs}::int * interval '1 millisecond')
      ON CONFLICT (name) DO UPDATE SET owner = EXCLUDED.owner, fence = leases.fence + 1, expires_at = EXCLUDED.expires_at, updated_at = now()
      WHERE leases.expires_at < now() OR leases.owner = EXCLUDED.owner
      RETURNING fence`;
}

/**
 * Named, expiring, fenced leases in PostgreSQL. Acquisition succeeds when the lease is free,
 * expired, or already ours; every acquisition increments `fence`, so work done under an
 * older fence can be refused.
 */
export class LeaseRepository {
  constructor(private readonly db: Database) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<HeldLease | null> {
    const result = await this.db.$client.query<{ fence: string }>({
      name: 'lease_acquire',
      text: acquireLeaseSql('$1', '$2', '$3'),
      values: [name, owner, ttlMs],
    });
    const row = result.rows[0];
    return row ? { name, owner, fence: Number(row.fence) } : null;
  }

  /** Extends a lease only if it is still held under the same fence. */
  async renew(lease: HeldLease, ttlMs: number): Promise<boolean> {
    const result = await this.db.execute(sql`
      UPDATE leases SET expires_at = now() + ${ttlMs} * interval '1 millisecond', updated_at = now()
      WHERE name = ${lease.name} AND owner = ${lease.owner} AND fence = ${lease.fence}`);
    return (result.rowCount ?? 0) === 1;
  }

  async release(lease: HeldLease): Promise<void> {
    await this.db.execute(sql`
      UPDATE leases SET expires_at = now() - interval '1 millisecond', updated_at = now()
      WHERE name = ${lease.name} AND owner = ${lease.owner} AND fence = ${lease.fence}`);
  }

  /**
   * Releases `name` if `owner` still holds it, whatever the fence: for owners that are not a
   * process but a piece of work (a wallet's in-flight batch `batch:<id>`), released by whichever
   * worker observes that work settled.
   */
  async releaseOwnedBy(name: string, owner: string): Promise<boolean> {
    const result = await this.db.execute(sql`
      UPDATE leases SET expires_at = now() - interval '1 millisecond', updated_at = now()
      WHERE name = ${name} AND owner = ${owner} AND expires_at > now()`);
    return (result.rowCount ?? 0) === 1;
  }
}
