import type { LeaseRepository } from '@starsgate/db';

/**
 * Which worker replica runs a shared look (one look per account for the whole cluster, not one
 * per replica): a named PostgreSQL lease, taken or renewed at each pass, as the sweeper's
 * (PeriodicTask). It only saves upstream calls: a look writes nothing but fenced claims, so two
 * replicas looking at once (a holder that paused past its ttl) cost a second read, never a wrong
 * move. PostgreSQL unreachable: this replica looks (its claims will fail the same way).
 */
export class LeaderLease {
  constructor(
    private readonly leases: Pick<LeaseRepository, 'acquire' | 'releaseOwnedBy'>,
    private readonly name: string,
    private readonly owner: string,
    private readonly ttlMs: number,
  ) {}

  async hold(): Promise<boolean> {
    try {
      return (await this.leases.acquire(this.name, this.owner, Math.max(1, Math.round(this.ttlMs)))) !== null;
    } catch {
      return true;
    }
  }

  async release(): Promise<void> {
    await this.leases.releaseOwnedBy(this.name, this.owner).catch(() => false);
  }
}
