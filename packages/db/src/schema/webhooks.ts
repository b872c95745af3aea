import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A receiver of signed webhook events. Its signing secrets are sealed with the secret vault
 * (`signing_secrets`: newest first, each `{ id, key_id, wrapped_key, ciphertext, expires_at }`, the
 * row id and the secret's id as authenticated data); a rotated-out secret keeps signing until its
 * `expires_at`. `events` null: every event type. Deleted endpoints stay (their deliveries refer
 * to them) with `deleted_at` set.
 */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  id: uuid('id').primaryKey(),
  url: text('url').notNull(),
  description: text('description'),
  events: text('events').array(),
  signingSecrets: jsonb('signing_secrets').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  deletedAt: timestamp('deleted_at', { withTimezone: true }),
});

/**
 * The outbox: one row per status change of a purchase, written by a trigger on `purchases` in the
 * transaction of the change itself (so no code path can change a status without its event, and a
 * crash cannot lose one), while at least one endpoint exists. `snapshot` is the purchase row as
 * committed (no secret lives in `purchases`); the event body is rendered from it. `sequence` is
 * the row's version, which grows with every change of the purchase. `dispatched_at`: deliveries
 * were created for the endpoints subscribed at that time.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    purchaseId: uuid('purchase_id').notNull(),
    sequence: integer('sequence').notNull(),
    status: text('status').notNull(),
    snapshot: jsonb('snapshot').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('webhook_events_purchase_sequence_idx').on(table.purchaseId, table.sequence),
    index('webhook_events_undispatched_idx')
      .on(table.createdAt)
      .where(sql`${table.dispatchedAt} IS NULL`),
    /** Retention deletes the oldest dispatched events first (WebhookDeliveries.prune). */
    index('webhook_events_dispatched_created_idx')
      .on(table.createdAt)
      .where(sql`${table.dispatchedAt} IS NOT NULL`),
  ],
);

/**
 * One event to one endpoint, delivered at least once: `pending` until a 2xx (`delivered`) or the
 * retry schedule runs out (`failed`; an operator may retry it). A claim sets `lease_until` so two
 * workers never post the same attempt at once.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    eventId: uuid('event_id')
      .notNull()
      .references(() => webhookEvents.id),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    state: text('state').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('webhook_deliveries_event_endpoint_idx').on(table.eventId, table.endpointId),
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.state} = 'pending'`),
    index('webhook_deliveries_list_idx').on(table.createdAt, table.id),
    index('webhook_deliveries_endpoint_idx').on(table.endpointId, table.createdAt, table.id),
    check('webhook_deliveries_state_check', sql`${table.state} IN ('pending','delivered','failed')`),
  ],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
