import { bigint, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Append-only audit of operator actions that are not purchase transitions (those are
 * `purchase_events` rows): webhook endpoints created, deleted or rotated, deliveries retried.
 * `token_id` names the admin token used (a hash prefix, never the token).
 */
export const adminActions = pgTable(
  'admin_actions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
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
