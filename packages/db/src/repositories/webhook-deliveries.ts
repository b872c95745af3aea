import { and, desc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../database';
import {
  webhookDeliveries,
  webhookEndpoints,
  webhookEvents,
  type PurchaseRow,
  type WebhookDeliveryRow,
} from '../schema';
import { before, epochMicros, keysetPage, type KeysetCursor } from './keyset';
import { fromDriverRow } from './driver-rows';
import { insertAdminAction, type AdminActionRecord } from './admin-audit';

export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;
export type WebhookDeliveryState = (typeof WEBHOOK_DELIVERY_STATES)[number];

/** An outbox event with the purchase row it recorded, decoded like a `purchases` row. */
export interface OutboxEvent {
  id: string;
  sequence: number;
  createdAt: Date;
  purchase: PurchaseRow;
}

/** A delivery claimed for one attempt: the event to post and where. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  event: OutboxEvent;
  endpoint: { id: string; url: string };
}

export interface DeliveryListFilter {
  endpointId?: string;
  state?: WebhookDeliveryState;
}

function outboxEvent(raw: { id: string; sequence: number; createdAt: Date; snapshot: unknown }): OutboxEvent {
  return {
    id: raw.id,
    sequence: raw.sequence,
    createdAt: raw.createdAt,
    purchase: fromDriverRow(raw.snapshot as Record<string, unknown>),
  };
}

/**
 * The webhook outbox's far side: events fan out into one delivery per subscribed endpoint, and
 * deliveries are claimed, attempted and settled (pending → delivered | failed).
 */
export class WebhookDeliveries {
  constructor(private readonly db: Database) {}

  /**
   * Creates the deliveries of up to `limit` undispatched events, oldest first, for the endpoints
   * subscribed to each event's type (`typeOf`), and marks those events dispatched: one
   * transaction, so an event is fanned out exactly once. Returns the new deliveries.
   */
  async dispatch(
    typeOf: (purchase: PurchaseRow) => string,
    limit: number,
  ): Promise<Array<Pick<WebhookDeliveryRow, 'id' | 'attempts'>>> {
    return this.db.transaction(async (tx) => {
      const events = await tx
        .select()
        .from(webhookEvents)
        .where(isNull(webhookEvents.dispatchedAt))
        .orderBy(webhookEvents.createdAt)
        .limit(limit)
        .for('update', { skipLocked: true });
      if (events.length === 0) return [];
      const endpoints = await tx
        .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(isNull(webhookEndpoints.deletedAt));
      const rows = events.flatMap((event) => {
        const type = typeOf(outboxEvent(event).purchase);
        return endpoints
          .filter((endpoint) => endpoint.events === null || endpoint.events.includes(type))
          .map((endpoint) => ({ eventId: event.id, endpointId: endpoint.id }));
      });
      const created =
        rows.length === 0
          ? []
          : await tx
              .insert(webhookDeliveries)
              .values(rows)
              .onConflictDoNothing()
              .returning({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts });
      await tx
        .update(webhookEvents)
        .set({ dispatchedAt: sql`now()` })
        .where(
          sql`${webhookEvents.id} = ANY(${sql.param(
            events.map((event) => event.id),
            webhookEvents.id,
          )}::uuid[])`,
        );
      return created;
    });
  }

  /** Pending deliveries that are due and nobody is attempting: the drain makes sure each has its job. */
  async due(limit: number): Promise<Array<Pick<WebhookDeliveryRow, 'id' | 'attempts'>>> {
    return this.db
      .select({ id: webhookDeliveries.id, attempts: webhookDeliveries.attempts })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.state, 'pending'),
          sql`${webhookDeliveries.nextAttemptAt} <= now()`,
          sql`(${webhookDeliveries.leaseUntil} IS NULL OR ${webhookDeliveries.leaseUntil} < now())`,
        ),
      )
      .orderBy(webhookDeliveries.nextAttemptAt)
      .limit(limit);
  }

  /**
   * Takes a due, pending delivery for one attempt (lease `leaseMs`), with its event and live
   * endpoint. Undefined when it is not due, settled, being attempted, or its endpoint was deleted.
   */
  async claim(id: string, leaseMs: number): Promise<ClaimedDelivery | undefined> {
    const [delivery] = await this.db
      .update(webhookDeliveries)
      .set({ leaseUntil: sql`now() + ${leaseMs} * interval '1 millisecond'` })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.state, 'pending'),
          sql`${webhookDeliveries.nextAttemptAt} <= now()`,
          sql`(${webhookDeliveries.leaseUntil} IS NULL OR ${webhookDeliveries.leaseUntil} < now())`,
        ),
      )
      .returning();
    if (!delivery) return undefined;
    const [found] = await this.db
      .select({ event: webhookEvents, endpoint: { id: webhookEndpoints.id, url: webhookEndpoints.url } })
      .from(webhookEvents)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, delivery.endpointId))
      .where(and(eq(webhookEvents.id, delivery.eventId), isNull(webhookEndpoints.deletedAt)));
    if (!found) {
      await this.db
        .update(webhookDeliveries)
        .set({ state: 'failed', leaseUntil: null, lastError: 'endpoint deleted' })
        .where(eq(webhookDeliveries.id, id));
      return undefined;
    }
    return { delivery, event: outboxEvent(found.event), endpoint: found.endpoint };
  }

  /**
   * Settles one attempt: 2xx → delivered; otherwise the next attempt at `retryAt`, or failed
   * when `retryAt` is null (the schedule ran out).
   */
  async recordAttempt(
    id: string,
    outcome: { ok: boolean; status: number | null; error: string | null; retryAt: Date | null },
  ): Promise<WebhookDeliveryRow | undefined> {
    const state: WebhookDeliveryState = outcome.ok ? 'delivered' : outcome.retryAt ? 'pending' : 'failed';
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({
        state,
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastAttemptAt: sql`now()`,
        lastStatus: outcome.status,
        lastError: outcome.error,
        leaseUntil: null,
        ...(outcome.ok ? { deliveredAt: sql`now()` } : {}),
        ...(outcome.retryAt ? { nextAttemptAt: outcome.retryAt } : {}),
      })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.state, 'pending')))
      .returning();
    return row;
  }

  /**
   * Retention: deletes up to `limit` events created before `cutoff` that are settled (fanned out,
   * and none of their deliveries still pending) together with their deliveries, oldest first, in
   * one statement. An operator's retry racing the delete makes it fail on the foreign key as a
   * whole; the next pass tries again. Returns how many events went.
   */
  async prune(cutoff: Date, limit: number): Promise<number> {
    const result = await this.db.execute(sql`
      WITH settled AS (
        SELECT e.id FROM ${webhookEvents} e
        WHERE e.dispatched_at IS NOT NULL
          AND e.created_at < ${cutoff.toISOString()}::timestamptz
          AND NOT EXISTS (
            SELECT 1 FROM ${webhookDeliveries} d WHERE d.event_id = e.id AND d.state = 'pending'
          )
        ORDER BY e.created_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      ), gone_deliveries AS (
        DELETE FROM ${webhookDeliveries} d USING settled WHERE d.event_id = settled.id
      )
      DELETE FROM ${webhookEvents} e USING settled WHERE e.id = settled.id`);
    return result.rowCount ?? 0;
  }

  /** An operator's retry: due now, with a fresh retry schedule. */
  /** An operator's retry: `audit` is recorded in the same transaction (no retry without its record). */
  async retry(id: string, audit?: AdminActionRecord): Promise<WebhookDeliveryRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(webhookDeliveries)
        .set({ state: 'pending', attempts: 0, nextAttemptAt: sql`now()`, leaseUntil: null })
        .where(eq(webhookDeliveries.id, id))
        .returning();
      if (row && audit) await insertAdminAction(tx, audit, id);
      return row;
    });
  }

  async findWithEvent(id: string): Promise<{ delivery: WebhookDeliveryRow; event: OutboxEvent } | undefined> {
    const [found] = await this.db
      .select({ delivery: webhookDeliveries, event: webhookEvents })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.id, id));
    return found ? { delivery: found.delivery, event: outboxEvent(found.event) } : undefined;
  }

  /** Newest first, keyset-paginated like the purchase listing, with each delivery's event type inputs. */
  async list(
    filter: DeliveryListFilter,
    cursor: KeysetCursor | null,
    limit: number,
  ): Promise<{
    rows: Array<{ delivery: WebhookDeliveryRow; event: OutboxEvent }>;
    next: KeysetCursor | null;
  }> {
    const where: SQL[] = [];
    if (filter.endpointId) where.push(eq(webhookDeliveries.endpointId, filter.endpointId));
    if (filter.state) where.push(eq(webhookDeliveries.state, filter.state));
    if (cursor) where.push(before(webhookDeliveries.createdAt, webhookDeliveries.id, cursor));
    const found = await this.db
      .select({
        delivery: webhookDeliveries,
        event: webhookEvents,
        createdMicros: epochMicros(webhookDeliveries.createdAt),
      })
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(and(...where))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(limit + 1);
    const { page, next } = keysetPage(found, limit, (entry) => ({
      micros: entry.createdMicros,
      id: entry.delivery.id,
    }));
    return { rows: page.map((entry) => ({ delivery: entry.delivery, event: outboxEvent(entry.event) })), next };
  }
}
