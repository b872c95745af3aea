/**
 * Every status change has reached the receiver at least once: each outbox event
 * (`webhook_events`) and each status move of the audit trail (`purchase_events` whose status
 * differs from the one before) has a verified request for that order and status.
 */
import type pg from 'pg';
import { sleep } from '@starsgate/stack';
import type { WebhookReceiver } from '../webhook-receiver';

export interface WebhooksReport {
  events: number;
  statusChanges: number;
  received: number;
  requests: number;
  badSignatures: number;
  missingEvents: string[];
  missingStatusChanges: string[];
  deliveriesByState: Record<string, number>;
}

async function compare(pool: pg.Pool, receiver: WebhookReceiver): Promise<WebhooksReport> {
  const events = await pool.query<{ key: string }>(`SELECT purchase_id || ':' || status AS key FROM webhook_events`);
  const changes = await pool.query<{ key: string }>(
    `SELECT DISTINCT purchase_id || ':' || to_status AS key FROM purchase_events
      WHERE from_status IS DISTINCT FROM to_status`,
  );
  const states = await pool.query<{ state: string; n: number }>(
    'SELECT state, count(*)::int AS n FROM webhook_deliveries GROUP BY state',
  );
  const seen = receiver.statusesSeen();
  return {
    events: events.rowCount ?? 0,
    statusChanges: changes.rowCount ?? 0,
    received: receiver.events.size,
    requests: receiver.requests,
    badSignatures: receiver.badSignatures,
    missingEvents: events.rows.map((r) => r.key).filter((key) => !seen.has(key)),
    missingStatusChanges: changes.rows.map((r) => r.key).filter((key) => !seen.has(key)),
    deliveriesByState: Object.fromEntries(states.rows.map((r) => [r.state, r.n])),
  };
}

/** Compares until nothing is missing or `timeoutMs` passed (deliveries still in flight get that long). */
export async function checkWebhooks(
  pool: pg.Pool,
  receiver: WebhookReceiver,
  timeoutMs: number,
): Promise<WebhooksReport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const report = await compare(pool, receiver);
    if ((report.missingEvents.length === 0 && report.missingStatusChanges.length === 0) || Date.now() > deadline)
      return report;
    await sleep(3_000);
  }
}
