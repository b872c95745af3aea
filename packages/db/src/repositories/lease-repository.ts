import { sql } from 'drizzle-orm';
import type { Database } from '../database';

export interface HeldLease {
  name: string;
  owner: string;
  fence: number;
}

/**
 * Named, expiring, fenced leases in PostgreSQL. Acquisition succeeds when the lease is free,
 * expired, or already ours; every acquisition increments `fence`, so work done under an
 * older fence can be refused.
 */
export class LeaseRepository {
  constructor(private readonly db: Database) {}

  async acquire(name: string, owner: string, ttlMs: number): Promise<HeldLease | null> {
    const result = await this.db.execute<{ fence: string }>(sql`
      INSERT INTO leases (name, owner, fence, expires_at)
      VALUES (${name}, ${owner}, 1, now() + ${ttlMs} * interval '1 millisecond')
      ON CONFLICT (name) DO UPDATE
        SET owner = EXCLUDED.owner,
            fence = leases.fence + 1,
            expires_at = EXCLUDED.expires_at,
            updated_at = now()
        WHERE leases.expires_at < now() OR leases.owner = EXCLUDED.owner
      RETURNING fence`);
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
