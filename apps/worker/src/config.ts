import { Address } from '@ton/core';
import { GRAM_DECIMALS, parseUnits, USDT_DECIMALS } from '@starsgate/domain';
import { loadKeyRing, type KeyRing } from '@starsgate/db';
import { splitCookieSets } from '@starsgate/fragment';
import {
  EnvReader,
  MAINNET_USDT_MASTER,
  readPrivateAddressAllowance,
  readSharedConfig,
  type PrivateAddressAllowance,
} from '@starsgate/platform';
import { readPriceRefresherConfig, type PriceRefresherConfig } from './prices/price-refresher';
import { ALL_CRASH_POINTS, type CrashPoint } from './purchases/state-machine/crash-points';

export interface StepMaxAges {
  /** queued/preparing: from the step start until a payment request is accepted. */
  preparingMs: number;
  /** Waiting for the wallet's sender with an accepted payment request (nothing signed yet). */
  waitingToSendMs: number;
  /** submitted → Fragment confirm answered. */
  submittedMs: number;
  /** confirming: from broadcast until the chain and Fragment both confirm delivery. */
  confirmingMs: number;
}

export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  bullPrefix: string;
  concurrency: number;
  logLevel: string;
  sweepIntervalMs: number;
  sweepBatchSize: number;
  shutdownTimeoutMs: number;
  /** `/metrics`, `/livez`, `/readyz` listener; 0 turns it off. */
  metricsPort: number;
  metricsHost: string;

  network: 'mainnet' | 'testnet';
  fragmentBaseUrl: string;
  /** Cookie headers, one per Fragment login session (FRAGMENT_COOKIES split on `|`). Credentials: never logged. */
  fragmentCookies: string[];
  fragmentTimeoutMs: number;
  toncenterUrl: string;
  toncenterApiKey: string | undefined;
  /** Requests per second to toncenter shared by every gateway and worker (TONCENTER_RPS; 0 = unpaced). */
  toncenterRps: number;
  usdtMaster: Address;
  /** Raw forms of Fragment's receiving wallets: the only payment destinations allowed. */
  fragmentReceivingAddresses: string[];
  /**
   * FRAGMENT_FROM_MUST_MATCH: refuse (before signing) a payment request whose `transaction.from`
   * is not the payer. Off by default: `from` may be the wallet linked to the Fragment account
   * (docs/fragment-protocol.md §17).
   */
  fragmentFromMustMatch: boolean;
  priceToleranceBps: number;
  maxSpendGramNano: bigint;
  maxSpendUsdtUnits: bigint;
  gramFeeReserveNano: bigint;
  /** Most GRAM a USDT transfer may attach for jetton gas (Fragment asks ~0.05). */
  jettonGasAttachNano: bigint;
  batchMax: number;
  leaseMs: number;
  /** BullMQ lock/stall check: how soon a job of a killed worker is handed out again. */
  jobLockMs: number;
  maxAges: StepMaxAges;
  /**
   * What completes a paid purchase. `strict`: Fragment shows the order delivered (history row or
   * status screen). `chain`: the payment of exactly Fragment's request settled on chain and the
   * confirm was accepted (Fragment's evidence is still recorded when seen).
   */
  deliveryProof: 'strict' | 'chain';
  retryBaseMs: number;
  retryMaxMs: number;
  /** Fragment/chain polling while confirming. */
  pollIntervalMs: number;
  /**
   * How often an outcome that is due is looked up again: a just-broadcast external while it is
   * due to land (one lookup per external, for a few poll intervals), so the wallet is free for the
   * next batch sooner; a batch's remaining deliveries once Fragment showed its first ones.
   */
  fastPollMs: number;
  /**
   * A purchase that finds its wallet busy parks; the sender that frees the wallet wakes it. This is
   * the fallback re-check should that wake-up be lost (a crashed sender).
   */
  walletBusyRetryMs: number;
  /** After valid_until, how long to wait for indexers before judging "not on chain". */
  validUntilMarginMs: number;
  /** Minimum remaining validity of Fragment's transaction when we sign (docs/fragment-protocol.md §15: ≥ 15 s). */
  minValiditySeconds: number;
  keyRing: KeyRing;
  /** The price list refresher (prices/price-refresher.ts). */
  prices: PriceRefresherConfig;
  /** STARSGATE_CRASH_AT: where crash-safety tests kill the worker (crash-points.ts); unset in production. */
  crashAt: CrashPoint | undefined;
  /** Webhook delivery (the outbox's drain and the delivery queue). */
  webhooks: WebhookDeliveryConfig;
  /** How often the evidence collector re-checks open reconciliation cases. */
  evidenceIntervalMs: number;
}

export interface WebhookDeliveryConfig {
  /** The drain: fans new outbox events out to endpoints and gives due deliveries their jobs. */
  drainIntervalMs: number;
  concurrency: number;
  /** A receiver answering 2xx within this is a success. */
  timeoutMs: number;
  /** Capped exponential backoff with jitter between attempts; the defaults spread 14 attempts over about a day. */
  retryBaseMs: number;
  retryMaxMs: number;
  maxAttempts: number;
  /** Settled events (and their deliveries) older than this many days are deleted. */
  retentionDays: number;
  pruneIntervalMs: number;
  /** WEBHOOK_ALLOW_PRIVATE: non-public addresses a receiver may have (none unless set). */
  allowPrivate: PrivateAddressAllowance;
}

export function loadWorkerConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = () => {},
): WorkerConfig {
  const read = new EnvReader(env);
  const shared = readSharedConfig(read);
  const address = (name: string, value: string): Address => {
    try {
      return Address.parse(value);
    } catch {
      read.problem(`${name} must be a TON address (got "${value}")`);
      return Address.parse(MAINNET_USDT_MASTER);
    }
  };
  const amount = (name: string, fallback: string, decimals: number): bigint => {
    const value = read.string(name, fallback);
    try {
      const parsed = parseUnits(value, decimals);
      if (parsed < 0n) throw new Error('negative');
      return parsed;
    } catch {
      read.problem(`${name} must be a non-negative decimal with at most ${decimals} decimals (got "${value}")`);
      return 0n;
    }
  };

  const receivers: string[] = [];
  for (const entry of (read.string('FRAGMENT_RECEIVING_ADDRESSES') ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    try {
      receivers.push(Address.parse(entry).toRawString());
    } catch {
      read.problem(`FRAGMENT_RECEIVING_ADDRESSES: "${entry}" is not a TON address`);
    }
  }
  const crashAt = read.string('STARSGATE_CRASH_AT');
  if (crashAt !== undefined && !(ALL_CRASH_POINTS as readonly string[]).includes(crashAt)) {
    read.problem(`STARSGATE_CRASH_AT must be one of ${ALL_CRASH_POINTS.join(', ')}`);
  }
  const nodeEnv = read.string('NODE_ENV', 'development');
  let keyRing: KeyRing | undefined;
  try {
    keyRing = loadKeyRing({
      value: read.string('STARSGATE_SECRET_KEY'),
      dataDir: read.string('STARSGATE_DATA_DIR', '.data'),
      allowGenerated: nodeEnv !== 'production',
      warn,
    });
  } catch (error) {
    read.problem((error as Error).message);
  }

  const config: WorkerConfig = {
    databaseUrl: shared.databaseUrl,
    redisUrl: shared.redisUrl,
    bullPrefix: shared.bullPrefix,
    concurrency: read.integer('WORKER_CONCURRENCY', 16, { min: 1, max: 1_000 }),
    logLevel: shared.logLevel,
    sweepIntervalMs: read.integer('SWEEP_INTERVAL_MS', 30_000, { min: 100, max: 3_600_000 }),
    sweepBatchSize: read.integer('SWEEP_BATCH_SIZE', 1_000, { min: 1, max: 100_000 }),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 20_000, { min: 0, max: 300_000 }),
    metricsPort: read.integer('WORKER_METRICS_PORT', 9464, { min: 0, max: 65_535 }),
    metricsHost: read.string('WORKER_METRICS_HOST', '0.0.0.0'),

    network: shared.network,
    fragmentBaseUrl: shared.fragmentBaseUrl,
    fragmentCookies: splitCookieSets(read.string('FRAGMENT_COOKIES', '')),
    fragmentTimeoutMs: read.integer('FRAGMENT_TIMEOUT_MS', 10_000, { min: 100, max: 120_000 }),
    toncenterUrl: shared.toncenter.url,
    toncenterApiKey: shared.toncenter.apiKey,
    toncenterRps: shared.toncenter.rps,
    usdtMaster: address('USDT_MASTER_ADDRESS', shared.usdtMaster),
    fragmentReceivingAddresses: receivers,
    fragmentFromMustMatch: read.boolean('FRAGMENT_FROM_MUST_MATCH', false),
    priceToleranceBps: read.integer('PRICE_TOLERANCE_BPS', 100, { min: 0, max: 5_000 }),
    maxSpendGramNano: amount('MAX_SPEND_GRAM', '100', GRAM_DECIMALS),
    maxSpendUsdtUnits: amount('MAX_SPEND_USDT', '500', USDT_DECIMALS),
    gramFeeReserveNano: amount('GRAM_FEE_RESERVE', '0.05', GRAM_DECIMALS),
    jettonGasAttachNano: amount('JETTON_GAS_ATTACH', '0.1', GRAM_DECIMALS),
    batchMax: read.integer('BATCH_MAX', 255, { min: 1, max: 255 }),
    leaseMs: read.integer('LEASE_MS', 30_000, { min: 1_000, max: 600_000 }),
    jobLockMs: read.integer('JOB_LOCK_MS', 30_000, { min: 1_000, max: 600_000 }),
    maxAges: {
      preparingMs: read.integer('PREPARING_MAX_AGE_MS', 10 * 60_000, { min: 1_000, max: 86_400_000 }),
      waitingToSendMs: read.integer('WAITING_TO_SEND_MAX_AGE_MS', 10 * 60_000, { min: 1_000, max: 86_400_000 }),
      submittedMs: read.integer('SUBMITTED_MAX_AGE_MS', 5 * 60_000, { min: 1_000, max: 86_400_000 }),
      confirmingMs: read.integer('CONFIRMING_MAX_AGE_MS', 15 * 60_000, { min: 1_000, max: 86_400_000 }),
    },
    deliveryProof: read.oneOf('DELIVERY_PROOF', 'strict', ['strict', 'chain'] as const),
    retryBaseMs: read.integer('RETRY_BASE_MS', 1_000, { min: 10, max: 600_000 }),
    retryMaxMs: read.integer('RETRY_MAX_MS', 60_000, { min: 10, max: 3_600_000 }),
    pollIntervalMs: read.integer('POLL_INTERVAL_MS', 1_000, { min: 10, max: 60_000 }),
    fastPollMs: read.integer('FAST_POLL_MS', 100, { min: 10, max: 60_000 }),
    walletBusyRetryMs: read.integer('WALLET_BUSY_RETRY_MS', 15_000, { min: 10, max: 60_000 }),
    validUntilMarginMs: read.integer('VALID_UNTIL_MARGIN_MS', 30_000, { min: 0, max: 600_000 }),
    minValiditySeconds: read.integer('MIN_VALIDITY_SECONDS', 15, { min: 1, max: 600 }),
    keyRing: keyRing as KeyRing,
    prices: readPriceRefresherConfig(read, shared),
    crashAt: crashAt as CrashPoint | undefined,
    webhooks: {
      drainIntervalMs: read.integer('WEBHOOK_DRAIN_INTERVAL_MS', 1_000, { min: 10, max: 600_000 }),
      concurrency: read.integer('WEBHOOK_CONCURRENCY', 8, { min: 1, max: 1_000 }),
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, { min: 100, max: 60_000 }),
      retryBaseMs: read.integer('WEBHOOK_RETRY_BASE_MS', 10_000, { min: 10, max: 3_600_000 }),
      retryMaxMs: read.integer('WEBHOOK_RETRY_MAX_MS', 6 * 3_600_000, { min: 10, max: 86_400_000 }),
      maxAttempts: read.integer('WEBHOOK_MAX_ATTEMPTS', 14, { min: 1, max: 100 }),
      retentionDays: read.integer('WEBHOOK_RETENTION_DAYS', 30, { min: 1, max: 3_650 }),
      pruneIntervalMs: read.integer('WEBHOOK_PRUNE_INTERVAL_MS', 3_600_000, { min: 1_000, max: 86_400_000 }),
      allowPrivate: readPrivateAddressAllowance(read),
    },
    evidenceIntervalMs: read.integer('EVIDENCE_INTERVAL_MS', 60_000, { min: 100, max: 86_400_000 }),
  };
  if (config.fragmentReceivingAddresses.length === 0) {
    warn(
      'FRAGMENT_RECEIVING_ADDRESSES is empty: every payment will be rejected by policy (PAYMENT_REJECTED_BY_POLICY).',
    );
  }
  if (config.fragmentCookies.length === 0)
    warn('FRAGMENT_COOKIES is empty: purchases will fail with UPSTREAM_SESSION_INVALID.');
  read.finish();
  return config;
}
