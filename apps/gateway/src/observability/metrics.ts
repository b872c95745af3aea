import { Counter, Histogram, Registry, collectDefaultMetrics, type Gauge } from 'prom-client';
import {
  createChainRateMetrics,
  createUpstreamMetrics,
  registerNativeCryptoGauge,
  type ChainRateMetrics,
  type UpstreamMetrics,
} from '@starsgate/platform';
import { nativeCellHashing } from '@starsgate/ton';

export interface GatewayMetrics {
  registry: Registry;
  httpDuration: Histogram<'method' | 'route' | 'status_class'>;
  purchasesCreated: Counter<'product' | 'payment_method' | 'mode'>;
  idempotentReplays: Counter;
  idempotencyConflicts: Counter<'kind'>;
  /** Read answers by read and where they came from: `hit` (memory or Redis), `miss` (a Fragment look-up or its flight). */
  readCache: Counter<'read' | 'result'>;
  upstream: UpstreamMetrics;
  /** Waits for the chain provider's shared rate limit, and the 429s it still answered. */
  chainRate: ChainRateMetrics;
  /** TON cell hashing on node:crypto, checked at start (1), or the JavaScript fallback (0). */
  tonNativeCrypto: Gauge;
}

/** Labels are bounded: route templates, status classes, products, upstream methods; never ids or addresses. */
export function createGatewayMetrics(): GatewayMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    httpDuration: new Histogram({
      name: 'starsgate_http_request_duration_seconds',
      help: 'HTTP request duration by route template and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    purchasesCreated: new Counter({
      name: 'starsgate_purchases_created_total',
      help: 'Purchases and checkouts accepted (new rows, not replays); mode server_signed or client_signed',
      labelNames: ['product', 'payment_method', 'mode'],
      registers: [registry],
    }),
    idempotentReplays: new Counter({
      name: 'starsgate_idempotency_replays_total',
      help: 'Requests answered from an existing purchase with the same key and order',
      registers: [registry],
    }),
    idempotencyConflicts: new Counter({
      name: 'starsgate_idempotency_conflicts_total',
      help: 'Idempotency conflicts by kind (key_reused, in_progress)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    readCache: new Counter({
      name: 'starsgate_read_cache_total',
      help: 'Availability answers by result: hit (memory or Redis cache), miss (Fragment looked up)',
      labelNames: ['read', 'result'],
      registers: [registry],
    }),
    upstream: createUpstreamMetrics(registry),
    chainRate: createChainRateMetrics(registry),
    tonNativeCrypto: registerNativeCryptoGauge(registry, nativeCellHashing),
  };
}
