import { customType, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { purchases } from './purchases';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * Envelope-encrypted wallet secrets. The data key is random per row and wrapped by the
 * key-encryption key named by `key_id`; the row id is authenticated data for both layers,
 * so a ciphertext moved to another row does not decrypt. Wiped when the purchase ends.
 */
export const walletSecrets = pgTable('wallet_secrets', {
  purchaseId: uuid('purchase_id')
    .primaryKey()
    .references(() => purchases.id),
  keyId: text('key_id').notNull(),
  wrappedKey: bytea('wrapped_key'),
  ciphertext: bytea('ciphertext'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  destroyedAt: timestamp('destroyed_at', { withTimezone: true }),
});

export type WalletSecretRow = typeof walletSecrets.$inferSelect;
