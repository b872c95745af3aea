import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface GatewayMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  purchasesCreated: Counter<'product' | 'payment_method' | 'mode'>;
  idempotentReplays: Counter;
  idempotencyConflicts: Counter<'kind'>;
}

/** Labels are bounded: route templates and status classes only, never ids or addresses. */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request duration by route template and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    purchasesCreated: new Counter({
      name: 'purchases_created_total',
      help: 'Purchases and checkouts accepted (new rows, not replays); mode server_signed or client_signed',
      labelNames: ['product', 'payment_method', 'mode'],
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'idempotency_replays_total',
      help: 'Requests answered from an existing purchase with the same key and order',
      registers: [registry],
    }),
    idempotencyConflicts: new Counter({
      name: 'idempotency_conflicts_total',
      help: 'Idempotency conflicts by kind (key_reused, in_progress)',
      labelNames: ['kind'],
      registers: [registry],
    }),
  };
}
