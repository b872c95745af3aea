import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Upstream answers of a shape we cannot read (e.g. a Fragment history page whose markup changed),
 * one row per source and session: what could not be read, when it was first and last reported.
 * Read by the operator's stats; written once per session per worker process.
 */
export const upstreamFormatErrors = pgTable(
  'upstream_format_errors',
  {
    /** What was read, e.g. `fragment_history:<product>`. */
    source: text('source').notNull(),
    /** The non-secret session name (FragmentClient.sessionId()). */
    sessionId: text('session_id').notNull(),
    problem: text('problem').notNull(),
    occurrences: integer('occurrences').notNull().default(1),
    firstSeenAt: timestamp('first_seen_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.source, table.sessionId] })],
);

export type UpstreamFormatErrorRow = typeof upstreamFormatErrors.$inferSelect;
