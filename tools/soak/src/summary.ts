import { count, fixed, percentile } from './format';
import type { GatewayClient } from './http-client';
import type { FinishedOrder, LoadDriver } from './load-driver';
import type { SoakWebhookReceiver } from './webhook-receiver';

/** Final statuses with their error codes, e.g. `failed (TOP_UP_REQUIRED)`, and how many. */
export function outcomesOf(finished: FinishedOrder[]): Map<string, number> {
  const outcomes = new Map<string, number>();
  for (const order of finished) {
    const key = order.errorCode ? `${order.status} (${order.errorCode})` : order.status;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  }
  return outcomes;
}

/** The run's totals: orders and their outcomes, end-to-end times, requests, webhooks. */
export function summaryLines(
  driver: LoadDriver,
  client: GatewayClient,
  receiver: SoakWebhookReceiver,
  elapsedMinutes: number,
): string[] {
  const finished = driver.finished;
  const e2e = finished.map((order) => order.elapsedMs / 1000);
  const purchases = driver.accepted.filter((order) => order.kind === 'purchase').length;
  const outcomes = [...outcomesOf(finished)].map(([key, n]) => `${key} ${count(n)}`).join(', ') || 'none';
  return [
    `orders accepted ${count(driver.accepted.length)} (purchases ${count(purchases)}, checkouts ` +
      `${count(driver.accepted.length - purchases)}; ${driver.checkoutsSkipped} checkout turn(s) became purchases while ` +
      `every buyer wallet was busy) · final ${count(finished.length)}: ${outcomes}`,
    `accept→final p50 ${fixed(percentile(e2e, 50))} s, p99 ${fixed(percentile(e2e, 99))} s, max ${fixed(Math.max(0, ...e2e))} s · ` +
      `requests ${count(client.totalRequests)} in ${fixed(elapsedMinutes)} min, errors ${client.totalErrors} · webhook posts ` +
      `${count(receiver.deliveries)} (repeats ${receiver.repeats}, bad signatures ${receiver.badSignatures})`,
  ];
}
