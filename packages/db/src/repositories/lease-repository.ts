import type { Database } from '../database';
import { ACQUIRE_LEASE, RELEASE_LEASE, RELEASE_LEASE_OWNED_BY, RENEW_LEASE } from '../sql/lease-statements';

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
    const result = await this.db.$client.query<{ fence: string }>({ ...ACQUIRE_LEASE, values: [name, owner, ttlMs] });
    const row = result.rows[0];
    return row ? { name, owner, fence: Number(row.fence) } : null;
  }

  /** Extends a lease only if it is still held under the same fence. */
  async renew(lease: HeldLease, ttlMs: number): Promise<boolean> {
    const result = await this.db.$client.query({
      ...RENEW_LEASE,
      values: [lease.name, lease.owner, lease.fence, ttlMs],
    });
    return (result.rowCount ?? 0) === 1;
  }

  async release(lease: HeldLease): Promise<void> {
    await this.db.$client.query({ ...RELEASE_LEASE, values: [lease.name, lease.owner, lease.fence] });
  }

  /**
   * Releases `name` if `owner` still holds it, whatever the fence: for owners that are not a
   * process but a piece of work (a wallet's in-flight batch `batch:<id>`), released by whichever
   * worker observes that work settled.
   */
  async releaseOwnedBy(name: string, owner: string): Promise<boolean> {
    const result = await this.db.$client.query({ ...RELEASE_LEASE_OWNED_BY, values: [name, owner] });
    return (result.rowCount ?? 0) === 1;
  }
}
