import type { PurchaseRow } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import type { ParkedEntry } from './shared-look';

/**
 * The full rows of parked purchases, kept by the watch between its looks: a parked row does not
 * change until its version does, so a group looked at every second reads from PostgreSQL only the
 * rows it has not seen at their listed version (new ones, or ones that moved and parked again).
 */
export class ParkedRows {
  private readonly rows = new Map<string, PurchaseRow>();

  constructor(private readonly deps: Pick<StepDeps, 'transitions'>) {}

  /** The rows of `entries` as of the versions listed; a row that moved since is left out. */
  async of(entries: readonly ParkedEntry[]): Promise<PurchaseRow[]> {
    const missing = entries.filter((entry) => this.rows.get(entry.id)?.version !== entry.version);
    if (missing.length > 0)
      for (const row of await this.deps.transitions.findMany(missing.map((entry) => entry.id)))
        this.rows.set(row.id, row);
    return entries.flatMap((entry) => {
      const row = this.rows.get(entry.id);
      return row?.version === entry.version ? [row] : [];
    });
  }

  /** Forgets every row but those still listed. */
  keepOnly(listed: readonly ParkedEntry[]): void {
    const ids = new Set(listed.map((entry) => entry.id));
    for (const id of this.rows.keys()) if (!ids.has(id)) this.rows.delete(id);
  }
}
