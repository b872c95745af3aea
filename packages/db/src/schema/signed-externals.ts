import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per signed external message: persisted before its first broadcast and only ever
 * rebroadcast. A batch pays many purchases with one external, so its BOC is stored once here and
 * every member purchase points at it by `batch_id`.
 */
export const signedExternals = pgTable(
  'signed_externals',
  {
    batchId: uuid('batch_id').primaryKey(),
    walletAddress: text('wallet_address').notNull(),
    boc: text('boc').notNull(),
    normalizedHash: text('normalized_hash').notNull(),
    seqno: integer('seqno').notNull(),
    validUntil: integer('valid_until').notNull(),
    messageCount: integer('message_count').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('signed_externals_wallet_idx').on(table.walletAddress, table.seqno)],
);

export type SignedExternalRow = typeof signedExternals.$inferSelect;
