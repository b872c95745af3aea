import { sql } from 'drizzle-orm';
import type { OrderLine, PaymentRequest } from '@starsgate/domain';
import { bigint, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  PAYMENT_METHOD_LIST,
  PRODUCT_LIST,
  PURCHASE_MODE_LIST,
  PURCHASE_STATUS_LIST,
  TERMINAL_STATUS_LIST,
} from '../sql/domain-lists';
import { signedExternals } from './signed-externals';

/**
 * One row per logical order: the source of truth for its state. BullMQ jobs only carry the id.
 * `version` fences every transition (UPDATE … WHERE version = $read).
 */
export const purchases = pgTable(
  'purchases',
  {
    id: uuid('id').primaryKey(),
    idempotencyKey: text('idempotency_key').notNull(),
    /**
     * The payer whose namespace the idempotency key lives in (docs/security.md, attack 5): a
     * purchase's payer public key (hex; the same for every wallet version a seed may pay from), a
     * checkout's payer address (raw). Purchases stored before the payer public key was stored
     * (migration 0008) hold 'legacy-unscoped' (migration 0010).
     */
    idempotencyScope: text('idempotency_scope').notNull(),
    /** HMAC-SHA256 over the route and the logical order (never the raw seed), hex. */
    requestFingerprint: text('request_fingerprint').notNull(),
    fingerprintKeyId: text('fingerprint_key_id').notNull(),
    status: text('status').notNull(),
    /** `server_signed`: a purchase paid with the stored seed; `client_signed`: a checkout the buyer's wallet signs. */
    mode: text('mode').notNull().default('server_signed'),
    version: integer('version').notNull().default(1),

    product: text('product').notNull(),
    username: text('username').notNull(),
    amount: integer('amount').notNull(),
    /**
     * What the order buys: product, recipient and the product's quantities; every intake writes it
     * and migration 0013 filled it from product/username/amount for older rows (null only on a row
     * inserted around intake, e.g. a test fixture: `rowQuantities` reads a one-quantity product's
     * `amount` then). `amount` stays: the API and webhooks show it.
     */
    orderLine: jsonb('order_line').$type<OrderLine>(),
    paymentMethod: text('payment_method').notNull(),

    /** Null for a checkout (no secret is ever stored for it). */
    seedFormat: text('seed_format'),
    accountIndex: integer('account_index'),
    /** The wallet_address the client sent, canonical raw form. */
    requestedWalletAddress: text('requested_wallet_address'),
    /** The payer wallet once known (at intake for 12-word seeds, in the worker otherwise). */
    walletAddress: text('wallet_address'),
    walletVersion: text('wallet_version'),
    /**
     * The payer's public key (hex). Server-signed: derived at intake, so the worker builds the payer
     * wallet without decrypting the seed and only signing opens it (null: accepted before it was
     * stored; the worker derives it). Checkout: TON Connect's account.publicKey, with walletStateInit
     * (Base64) for a payer not deployed yet.
     */
    payerPublicKey: text('payer_public_key'),
    payerStateInit: text('payer_state_init'),
    /** Checkout: the TON Connect sendTransaction request the buyer's wallet signs. */
    checkoutTransaction: jsonb('checkout_transaction'),

    attempt: integer('attempt').notNull().default(0),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull().defaultNow(),
    stepStartedAt: timestamp('step_started_at', { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),

    /** Fragment order: request id, Ref# code, the quote it was created against. */
    fragmentReqId: text('fragment_req_id'),
    fragmentRef: text('fragment_ref'),
    quoteNano: bigint('quote_nano', { mode: 'bigint' }),
    /** The exact payment Fragment asked for: destination, amount, payload, validUntil. */
    paymentRequest: jsonb('payment_request').$type<PaymentRequest>(),

    /** The signed external paying this purchase (its BOC is in signed_externals), set before the first broadcast. */
    normalizedHash: text('normalized_hash'),
    seqno: integer('seqno'),
    validUntil: integer('valid_until'),
    batchId: uuid('batch_id').references(() => signedExternals.batchId),

    transactionHash: text('transaction_hash'),
    transactionLt: text('transaction_lt'),
    error: jsonb('error'),
    evidence: jsonb('evidence'),

    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** When something a client sees (status, transaction hash, error) last changed. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** When the worker last wrote the row (claims, polls, heartbeats): its bookkeeping, never shown. */
    workedAt: timestamp('worked_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (table) => [
    // Keys are scoped by route and payer: a purchase and a checkout, or two payers, may carry the
    // same key string. Leading with the key, so a lookup by key alone (the operator API) is
    // served by it too.
    uniqueIndex('purchases_idempotency_key_idx').on(table.idempotencyKey, table.mode, table.idempotencyScope),
    // The sweeper and the per-wallet batcher only look at live rows.
    index('purchases_live_next_run_idx')
      .on(table.nextRunAt)
      .where(sql`${table.status} NOT IN ${sql.raw(TERMINAL_STATUS_LIST)}`),
    index('purchases_live_wallet_idx')
      .on(table.walletAddress, table.status)
      .where(sql`${table.status} NOT IN ${sql.raw(TERMINAL_STATUS_LIST)}`),
    // Delivery checks count our own identical orders (same recipient and quantity) per account history.
    index('purchases_order_lookalike_idx').on(
      sql`lower(${table.username})`,
      table.product,
      table.amount,
      table.createdAt,
    ),
    // Operator listings (admin API): newest first, keyset on (created_at, id), one index per filter
    // that narrows the set; product and payment method filter along the first.
    index('purchases_created_idx').on(table.createdAt, table.id),
    index('purchases_status_created_idx').on(table.status, table.createdAt, table.id),
    index('purchases_username_created_idx').on(sql`lower(${table.username})`, table.createdAt, table.id),
    index('purchases_wallet_created_idx').on(table.walletAddress, table.createdAt, table.id),
    // Completions and failures of the last hour (admin stats).
    index('purchases_finished_idx')
      .on(table.completedAt)
      .where(sql`${table.completedAt} IS NOT NULL`),
    check('purchases_status_check', sql`${table.status} IN ${sql.raw(PURCHASE_STATUS_LIST)}`),
    check('purchases_mode_check', sql`${table.mode} IN ${sql.raw(PURCHASE_MODE_LIST)}`),
    check('purchases_seed_format_check', sql`${table.mode} = 'client_signed' OR ${table.seedFormat} IS NOT NULL`),
    check('purchases_product_check', sql`${table.product} IN ${sql.raw(PRODUCT_LIST)}`),
    check('purchases_payment_method_check', sql`${table.paymentMethod} IN ${sql.raw(PAYMENT_METHOD_LIST)}`),
  ],
);

/** Append-only audit trail: one row per transition and per notable step outcome. */
export const purchaseEvents = pgTable(
  'purchase_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    purchaseId: uuid('purchase_id')
      .notNull()
      .references(() => purchases.id),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    version: integer('version').notNull(),
    actor: text('actor').notNull(),
    reason: text('reason'),
    data: jsonb('data'),
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('purchase_events_purchase_idx').on(table.purchaseId, table.id)],
);

export type PurchaseRow = typeof purchases.$inferSelect;
export type NewPurchaseRow = typeof purchases.$inferInsert;
export type PurchaseEventRow = typeof purchaseEvents.$inferSelect;
