import { desc, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { upstreamFormatErrors, type UpstreamFormatErrorRow } from '../schema';

/** Records of upstream answers we could not read (see the schema); the admin stats read `list`. */
export class UpstreamFormatErrorRepository {
  constructor(private readonly db: Database) {}

  async record(entry: { source: string; sessionId: string; problem: string }): Promise<void> {
    await this.db
      .insert(upstreamFormatErrors)
      .values(entry)
      .onConflictDoUpdate({
        target: [upstreamFormatErrors.source, upstreamFormatErrors.sessionId],
        set: {
          problem: entry.problem,
          occurrences: sql`${upstreamFormatErrors.occurrences} + 1`,
          lastSeenAt: sql`now()`,
        },
      });
  }

  list(limit = 100): Promise<UpstreamFormatErrorRow[]> {
    return this.db.select().from(upstreamFormatErrors).orderBy(desc(upstreamFormatErrors.lastSeenAt)).limit(limit);
  }
}
