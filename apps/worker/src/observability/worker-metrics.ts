import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import {
  createChainRateMetrics,
  createUpstreamMetrics,
  registerNativeCryptoGauge,
  type ChainRateMetrics,
  type UpstreamMetrics,
} from '@starsgate/platform';
import { nativeCellHashing } from '@starsgate/ton';

/**
 * The worker's one metrics registry: every worker series is declared here, so a new one (a
 * counter of some upstream oddity) is a field added to this object. Labels are bounded: mode,
 * product, payment method, status, queue, upstream method, session index; never ids, usernames or
 * addresses.
 */
export interface WorkerMetrics {
  registry: Registry;
  upstream: UpstreamMetrics;
  /** Waits for the chain provider's shared rate limit, and the 429s it still answered. */
  chainRate: ChainRateMetrics;
  purchasesFinished: Counter<'mode' | 'product' | 'payment_method' | 'status'>;
  statusDuration: Histogram<'status'>;
  endToEnd: Histogram<'mode' | 'product' | 'payment_method' | 'status'>;
  queueJobs: Gauge<'queue' | 'state'>;
  openPurchases: Gauge<'status'>;
  oldestOpenAge: Gauge<'status'>;
  reconciliationOpen: Gauge;
  reconciliationOldestAge: Gauge;
  walletLeasesHeld: Gauge;
  webhookDeliveriesUndelivered: Gauge<'state'>;
  webhookAttempts: Counter<'outcome'>;
  fragmentSessionValid: Gauge<'session'>;
  /** Each Fragment login alive (1) or out of rotation (0), by session id, as every replica sees it. */
  fragmentLoginAlive: Gauge<'session'>;
  /** Upstream answers of a shape we cannot read, once per session and source per process. */
  upstreamFormatErrors: Counter<'source'>;
  /** Payment requests whose `transaction.from` is not the payer (docs/fragment-protocol.md §17). */
  fragmentFromMismatches: Counter<'mode' | 'payment_method' | 'outcome'>;
  /** Fragment calls Cloudflare stopped (challenge or block page): the host, not the login, is refused. */
  fragmentCloudflare: Counter<'session' | 'stop'>;
  /** TON cell hashing on node:crypto, checked at start (1), or the JavaScript fallback (0). */
  tonNativeCrypto: Gauge;
}

const DURATION_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];

export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    upstream: createUpstreamMetrics(registry),
    chainRate: createChainRateMetrics(registry),
    purchasesFinished: new Counter({
      name: 'starsgate_purchases_finished_total',
      help: 'Purchases and checkouts (mode server_signed / client_signed) that reached a final status',
      labelNames: ['mode', 'product', 'payment_method', 'status'],
      registers,
    }),
    statusDuration: new Histogram({
      name: 'starsgate_purchase_status_duration_seconds',
      help: 'Time a purchase spent in a status, observed when it leaves it',
      labelNames: ['status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    endToEnd: new Histogram({
      name: 'starsgate_purchase_end_to_end_seconds',
      help: 'From acceptance (the 202) to a final status',
      labelNames: ['mode', 'product', 'payment_method', 'status'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    queueJobs: new Gauge({
      name: 'starsgate_queue_jobs',
      help: 'BullMQ jobs by queue and state, read at scrape time',
      labelNames: ['queue', 'state'],
      registers,
    }),
    openPurchases: new Gauge({
      name: 'starsgate_purchases_open',
      help: 'Purchases in each non-final status (reconciliation_required included), read at scrape time',
      labelNames: ['status'],
      registers,
    }),
    oldestOpenAge: new Gauge({
      name: 'starsgate_purchase_oldest_age_seconds',
      help: 'How long the longest-waiting purchase of each non-final status has been in it',
      labelNames: ['status'],
      registers,
    }),
    reconciliationOpen: new Gauge({
      name: 'starsgate_reconciliation_open',
      help: 'Open reconciliation cases (purchases in reconciliation_required)',
      registers,
    }),
    reconciliationOldestAge: new Gauge({
      name: 'starsgate_reconciliation_oldest_age_seconds',
      help: 'Age of the oldest open reconciliation case (0 when none)',
      registers,
    }),
    walletLeasesHeld: new Gauge({
      name: 'starsgate_wallet_leases_held',
      help: 'Wallet sender leases held (wallets with a transaction in flight)',
      registers,
    }),
    webhookDeliveriesUndelivered: new Gauge({
      name: 'starsgate_webhook_deliveries_undelivered',
      help: 'Webhook deliveries not delivered, by state (pending, failed)',
      labelNames: ['state'],
      registers,
    }),
    webhookAttempts: new Counter({
      name: 'starsgate_webhook_deliveries_total',
      help: 'Webhook delivery attempts by outcome: delivered, retrying (will be tried again), failed (gave up)',
      labelNames: ['outcome'],
      registers,
    }),
    fragmentSessionValid: new Gauge({
      name: 'starsgate_fragment_session_valid',
      help: 'Whether each configured Fragment login session (by position) last worked: 1 valid, 0 refused',
      labelNames: ['session'],
      registers,
    }),
    fragmentLoginAlive: new Gauge({
      name: 'starsgate_fragment_login_alive',
      help: 'Whether each Fragment login (by session id) is in rotation: 1 alive, 0 dead (logged out, out of rotation until a recheck finds it live)',
      labelNames: ['session'],
      registers,
    }),
    upstreamFormatErrors: new Counter({
      name: 'starsgate_upstream_format_errors_total',
      help: 'Upstream answers of an unknown shape (e.g. a Fragment history page whose markup changed), once per session',
      labelNames: ['source'],
      registers,
    }),
    fragmentFromMismatches: new Counter({
      name: 'starsgate_fragment_from_mismatches_total',
      help: 'Fragment payment requests whose transaction.from is not the paying wallet; outcome accepted, or refused by FRAGMENT_FROM_MUST_MATCH',
      labelNames: ['mode', 'payment_method', 'outcome'],
      registers,
    }),
    fragmentCloudflare: new Counter({
      name: 'starsgate_fragment_cloudflare_total',
      help: 'Fragment calls stopped by Cloudflare, by login session (position) and stop (challenge, block): use a proxy (FRAGMENT_PROXY_URL)',
      labelNames: ['session', 'stop'],
      registers,
    }),
    tonNativeCrypto: registerNativeCryptoGauge(registry, nativeCellHashing),
  };
}

/**
 * `starsgate_fragment_login_alive` from the logins' states as Redis holds them, at scrape time:
 * only the logins configured now have a series. A login replaced in FRAGMENT_COOKIES_FILE (its
 * state forgotten) loses its series, so a renewed dead login does not keep the login-dead alert
 * firing until the worker restarts.
 */
export function setLoginGauges(
  gauge: WorkerMetrics['fragmentLoginAlive'],
  logins: ReadonlyArray<{ sessionId: string; alive: boolean }>,
): void {
  gauge.reset();
  for (const login of logins) gauge.set({ session: login.sessionId }, login.alive ? 1 : 0);
}
