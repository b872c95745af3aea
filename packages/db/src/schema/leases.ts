import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Named leases: one in-flight external per wallet (`wallet:<raw address>`) and single-flight
 * background jobs (`sweeper`). `fence` grows on every acquisition so a holder that lost its
 * lease cannot act on it.
 */
export const leases = pgTable('leases', {
  name: text('name').primaryKey(),
  owner: text('owner').notNull(),
  fence: bigint('fence', { mode: 'number' }).notNull().default(1),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type LeaseRow = typeof leases.$inferSelect;
