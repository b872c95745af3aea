import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Append-only audit of operator actions that are not purchase transitions (those are
 * `purchase_events` rows): webhook endpoints created, deleted or rotated, deliveries retried,
 * Bull Board changes. Written in the same transaction as the change it records. `actor` is the
 * authenticated identity, `token:<token_id>` (a hash prefix of the admin token, never the token);
 * `operator` is only the name the caller gave (Starsgate-Operator header, dashboard login): a label.
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    actor: text('actor').notNull(),
    operator: text('operator').notNull(),
    tokenId: text('token_id').notNull(),
    action: text('action').notNull(),
    targetId: text('target_id').notNull(),
    reason: text('reason'),
    details: jsonb('details'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('admin_actions_target_idx').on(table.targetId, table.id)],
);

export type AdminActionRow = typeof adminActions.$inferSelect;
export type NewAdminActionRow = typeof adminActions.$inferInsert;
