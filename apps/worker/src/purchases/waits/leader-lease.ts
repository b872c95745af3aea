import type { LeaseRepository } from '@starsgate/db';

/**
 * Which worker replica runs a shared look (one look per account for the whole cluster, not one
 * per replica): a named PostgreSQL lease, as the sweeper's (PeriodicTask). It only saves
 * upstream calls: a look writes nothing but fenced claims, so two replicas looking at once (a
 * holder that paused past its ttl) cost a second read, never a wrong move. PostgreSQL unreachable: this replica looks (its claims will fail the same way).
 */
export class LeaderLease {
  /** Until when (this process's clock) this owner holds the lease for sure; 0: not known to. */
  private heldUntil = 0;

  constructor(
    private readonly leases: Pick<LeaseRepository, 'acquire' | 'releaseOwnedBy'>,
    private readonly name: string,
    private readonly owner: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether this replica looks now. Renewed once half its ttl has passed, not at every pass: each
   * renewal is a write, and a pass comes every poll interval even when nothing waits.
   */
  async hold(): Promise<boolean> {
    const now = this.now();
    if (now < this.heldUntil - this.ttlMs / 2) return true;
    try {
      const held = (await this.leases.acquire(this.name, this.owner, Math.max(1, Math.round(this.ttlMs)))) !== null;
      this.heldUntil = held ? now + this.ttlMs : 0;
      return held;
    } catch {
      this.heldUntil = 0;
      return true;
    }
  }

  async release(): Promise<void> {
    this.heldUntil = 0;
    await this.leases.releaseOwnedBy(this.name, this.owner).catch(() => false);
  }
}
