import { readFileSync } from 'node:fs';
import { Address } from '@ton/core';
import { GRAM_DECIMALS, parseUnits, USDT_DECIMALS } from '@starsgate/domain';
import { loadKeyRing, type KeyRing } from '@starsgate/db';
import { splitCookieSets, splitProxyUrls } from '@starsgate/fragment';
import {
  boolean,
  commaList,
  FRAGMENT_COOKIES_VARIABLE,
  FRAGMENT_PROXY_URL_VARIABLE,
  finishConfig,
  integer,
  MAINNET_USDT_MASTER,
  port,
  privateAddressAllowance,
  readEnvironment,
  SECRET_KEY_VARIABLE,
  sharedConfig,
  sharedConfigProblems,
  SHARED_VARIABLES,
  string,
  type PrivateAddressAllowance,
  type SharedConfig,
} from '@starsgate/platform';
import { cookieSetsOfText } from './fragment-cookies-file';
import { priceRefresherConfig, PRICE_REFRESHER_VARIABLES, type PriceRefresherConfig } from './prices/price-refresher';
import { ALL_CRASH_POINTS, type CrashPoint } from './purchases/crash-points';

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
  databasePooler: SharedConfig['databasePooler'];
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
  /** FRAGMENT_PROXY_URL: none, one for every login, or one per login (`proxyForLogin`). Credentials: never logged. */
  fragmentProxyUrls: string[];
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
  /** Which logins' paid look-alikes a delivery check counts (FRAGMENT_ACCOUNT_SCOPE, docs/fragment-protocol.md §21). */
  fragmentAccountScope: 'all' | 'login';
  retryBaseMs: number;
  retryMaxMs: number;
  /** How long `preparing` asks the price book again for an order it cannot price before PRICES_UNAVAILABLE. */
  priceBookWaitMs: number;
  /** Fragment/chain polling while confirming. */
  pollIntervalMs: number;
  /**
   * How often an outcome that is due is looked up again: a just-broadcast external while it is
   * due to land (one lookup per external, for a few poll intervals), so the wallet is free for the
   * next batch sooner; a batch's remaining deliveries once Fragment showed its first ones.
   */
  fastPollMs: number;
  /**
   * A purchase waiting for Fragment's delivery is parked (its row untouched until it moves) and
   * woken by the delivery watch's shared look per Fragment account. The look comes every
   * POLL_INTERVAL_MS at first, 1.5 times later each time it shows nothing new, at most this far
   * apart; a new waiting purchase or a delivery brings it back to POLL_INTERVAL_MS.
   */
  waitLookMaxMs: number;
  /**
   * A purchase that finds its wallet busy parks; the sender that frees the wallet wakes it. This is
   * the fallback re-check should that wake-up be lost (a crashed sender).
   */
  walletBusyRetryMs: number;
  /** After valid_until, how long to wait for indexers before judging "not on chain". */
  validUntilMarginMs: number;
  /** Minimum remaining validity of Fragment's transaction when we sign (docs/fragment-protocol.md §15: ≥ 15 s). */
  minValiditySeconds: number;
  /** Most a Fragment transaction's validUntil may lie ahead, at acceptance and at signing (docs/security.md, attack 24). */
  maxValiditySeconds: number;
  /** Most Fragment may ask for a quoted product, in percent of the price book's price (docs/security.md, attack 24). */
  maxPriceToBookPercent: number;
  keyRing: KeyRing;
  /** The price list refresher (prices/price-refresher.ts). */
  prices: PriceRefresherConfig;
  /** STARSGATE_CRASH_AT: where crash-safety tests kill the worker (crash-points.ts); unset in production. */
  crashAt: CrashPoint | undefined;
  /** Webhook delivery (the outbox's drain and the delivery queue). */
  webhooks: WebhookDeliveryConfig;
  /** How often the evidence collector re-checks open reconciliation cases. */
  evidenceIntervalMs: number;
  /** How often a dead Fragment login's page is read again to bring it back (docs/fragment-protocol.md §20.3). */
  fragmentLoginRecheckMs: number;
  /**
   * Where the logins of `fragmentCookies` came from: FRAGMENT_COOKIES's, then the file's, re-read
   * every `pollMs` (docs/fragment-protocol.md §20.2).
   */
  fragmentCookieSources: { variable: string[]; file?: { path: string; text: string; pollMs: number } };
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

const milliseconds = (fallback: number, minimum: number, maximum: number, description: string) =>
  integer({ default: fallback, minimum, maximum, description });
const DECIMAL = '^\\d+(\\.\\d+)?$';
const amount = (fallback: string, description: string) =>
  string({ default: fallback, pattern: DECIMAL, patternHint: 'a non-negative decimal', description });

/** Every variable the worker reads. Add one here (and use it below); `npm run config:docs` documents it. */
export const WORKER_VARIABLES = {
  ...SHARED_VARIABLES,
  STARSGATE_SECRET_KEY: SECRET_KEY_VARIABLE,
  FRAGMENT_COOKIES: FRAGMENT_COOKIES_VARIABLE,
  FRAGMENT_PROXY_URL: FRAGMENT_PROXY_URL_VARIABLE,
  FRAGMENT_COOKIES_FILE: string({
    description:
      'A file of Fragment logins (a mounted Secret): one Cookie header per line (or several joined by " | "), blank lines and # comments skipped. Used beside FRAGMENT_COOKIES, and read again whenever its content changes: renewing a login is rewriting this file, no restart. Its content is a credential: never logged.',
  }),
  FRAGMENT_COOKIES_FILE_POLL_MS: milliseconds(
    5_000,
    100,
    600_000,
    'How often FRAGMENT_COOKIES_FILE is read to see whether its logins changed.',
  ),
  WORKER_CONCURRENCY: integer({
    default: 16,
    minimum: 1,
    maximum: 1_000,
    description: 'Purchase jobs run at once per worker process.',
  }),
  WORKER_METRICS_PORT: port({
    default: 9464,
    description:
      "The worker's own HTTP listener: /metrics (Prometheus), /livez and /readyz (Kubernetes probes). 0 turns it off.",
  }),
  WORKER_METRICS_HOST: string({ default: '0.0.0.0', description: 'Address of the metrics and probes listener.' }),
  SWEEP_INTERVAL_MS: milliseconds(
    30_000,
    100,
    3_600_000,
    'The sweeper re-enqueues live purchases whose BullMQ job is missing (e.g. after a Redis flush, or a purchase parked behind a busy wallet whose sender died before waking it).',
  ),
  SWEEP_BATCH_SIZE: integer({ default: 1_000, minimum: 1, maximum: 100_000, description: 'Purchases per sweep.' }),
  SHUTDOWN_TIMEOUT_MS: milliseconds(
    20_000,
    0,
    300_000,
    'SIGTERM: readiness turns 503 at once; running jobs (the gateway: in-flight requests) get this long to finish.',
  ),
  FRAGMENT_TIMEOUT_MS: milliseconds(10_000, 100, 120_000, 'Per Fragment HTTP call of a purchase.'),
  FRAGMENT_RECEIVING_ADDRESSES: string({
    example: 'UQCx4pTlH7ZW1frKL6G2QCqBLp6fyRZ8dS0Y6FjZeWjS7oLI,UQCIpAP-7Cn5zeSnHywwjxkoeehzo6rMTwMeSGBkPCkZsR-l',
    description:
      "Payment policy, checked before anything is signed (violations fail PAYMENT_REJECTED_BY_POLICY): comma list of Fragment's receiving wallets (friendly or raw); empty = every payment is refused. As shipped: the sandbox simulator's (SANDBOX_SEED=starsgate-demo); production: Fragment's real ones.",
  }),
  FRAGMENT_FROM_MUST_MATCH: boolean({
    default: false,
    description:
      "true: refuse (before signing) a payment request whose transaction.from is not the paying wallet. Default false: Fragment may name the wallet linked to its account; the payer pays the same request (a USDT transfer goes through the payer's own jetton wallet). docs/fragment-protocol.md §17.",
  }),
  PRICE_TOLERANCE_BPS: integer({
    default: 100,
    minimum: 0,
    maximum: 5_000,
    description: "Largest allowed difference between the amount to sign and Fragment's quote, basis points.",
  }),
  MAX_SPEND_GRAM: amount('100', 'Per-purchase spend cap in GRAM, a decimal string.'),
  MAX_SPEND_USDT: amount('500', 'Per-purchase spend cap in USDT, a decimal string.'),
  GRAM_FEE_RESERVE: amount(
    '0.05',
    'GRAM kept for network fees on top of what the messages carry (TOP_UP_REQUIRED below it).',
  ),
  JETTON_GAS_ATTACH: amount(
    '0.6',
    "Most GRAM a USDT payment may attach to the jetton transfer for gas (Fragment's own message; the unused part returns to the payer). Other clients allow 0.3 to 0.6 (docs/fragment-protocol.md, 2026-11-28); more is refused PAYMENT_REJECTED_BY_POLICY (gas_attach), naming the amount.",
  ),
  BATCH_MAX: integer({
    default: 255,
    minimum: 1,
    maximum: 255,
    description: 'Purchases of one wallet sent in one external (V5R1 ≤ 255, V4R2/V3R2 ≤ 4 regardless).',
  }),
  LEASE_MS: milliseconds(30_000, 1_000, 600_000, 'Purchase lease (heartbeat at a third).'),
  JOB_LOCK_MS: milliseconds(
    30_000,
    1_000,
    600_000,
    "BullMQ job lock: how soon a killed worker's job is handed out again.",
  ),
  PREPARING_MAX_AGE_MS: milliseconds(
    600_000,
    1_000,
    86_400_000,
    'Maximum age of a purchase before its payment request is accepted.',
  ),
  WAITING_TO_SEND_MAX_AGE_MS: milliseconds(600_000, 1_000, 86_400_000, "Maximum wait for the wallet's sender."),
  SUBMITTED_MAX_AGE_MS: milliseconds(300_000, 1_000, 86_400_000, "Maximum wait for Fragment's confirm answer."),
  CONFIRMING_MAX_AGE_MS: milliseconds(
    900_000,
    1_000,
    86_400_000,
    'Maximum time from broadcast to delivery (then reconciliation_required).',
  ),
  DELIVERY_PROOF: string({
    default: 'strict',
    enum: ['strict', 'chain'],
    description:
      'What completes a paid purchase: strict = Fragment shows it delivered (history row or status screen); chain = its exact payment settled on chain and the confirm was accepted (README, "Delivery proof").',
  }),
  FRAGMENT_ACCOUNT_SCOPE: string({
    default: 'all',
    enum: ['all', 'login'],
    description:
      "Whose identical paid orders the delivery check counts against a login's Fragment history: all = every login's (safe whatever the logins are; identical orders on two accounts wait for each other); login = only those made with the same Telegram login (stel_token). Set login only when every login in FRAGMENT_COOKIES is a different Telegram account: two logins of one account share one history, and counting one login's orders alone could take another's history row as this order's delivery.",
  }),
  RETRY_BASE_MS: milliseconds(
    1_000,
    10,
    600_000,
    'Transient failures: first delay of the capped exponential backoff with jitter.',
  ),
  RETRY_MAX_MS: milliseconds(60_000, 10, 3_600_000, 'Transient failures: the backoff cap.'),
  PRICE_BOOK_WAIT_MS: milliseconds(
    60_000,
    0,
    3_600_000,
    'How long a purchase the price book cannot price is asked again (with the transient-failure backoff), from the first unanswered ask in its preparing step, before it fails PRICES_UNAVAILABLE; Fragment is never asked for the order meanwhile (the spend cap and funds checks need the price).',
  ),
  POLL_INTERVAL_MS: milliseconds(1_000, 10, 60_000, 'Chain/Fragment polling while confirming.'),
  FAST_POLL_MS: milliseconds(
    100,
    10,
    60_000,
    "How often an outcome that is due is looked up again: a just-broadcast external while it is due to land, so the wallet is free for its next batch sooner; a batch's remaining deliveries once Fragment showed its first ones.",
  ),
  WAIT_LOOK_MAX_MS: milliseconds(
    10_000,
    10,
    300_000,
    "Purchases waiting for Fragment's delivery are looked at together, one shared look per Fragment account: every POLL_INTERVAL_MS at first, 1.5 times later each time nothing new is seen, at most this far apart (back to POLL_INTERVAL_MS when a purchase starts waiting or a delivery is seen). Their rows are not written while they wait.",
  ),
  WALLET_BUSY_RETRY_MS: milliseconds(
    15_000,
    10,
    60_000,
    'A purchase that finds its wallet busy parks and is woken by the sender that frees the wallet; this is only the fallback re-check (run by the sweeper) should that wake-up be lost.',
  ),
  MIN_VALIDITY_SECONDS: integer({
    default: 15,
    minimum: 1,
    maximum: 600,
    description: 'Refuse to sign a Fragment transaction valid for less than this many seconds.',
  }),
  MAX_VALIDITY_SECONDS: integer({
    default: 900,
    minimum: 60,
    maximum: 86_400,
    description:
      'Refuse a Fragment transaction whose validUntil is more than this many seconds away (Fragment gives about 300): a far-future deadline would keep the signed external valid and the wallet leased.',
  }),
  MAX_PRICE_TO_BOOK_PERCENT: integer({
    default: 150,
    minimum: 100,
    maximum: 1_000,
    description:
      "Refuse a payment request for a quoted product (one Fragment names the price of, not priced at face value) asking more than this percent of the price book's price for the order, before anything is signed.",
  }),
  STARSGATE_CRASH_AT: string({
    enum: ALL_CRASH_POINTS,
    testOnly: true,
    description: 'Tests only: SIGKILL the worker at this crash point. Never set in production.',
  }),
  WEBHOOK_DRAIN_INTERVAL_MS: milliseconds(
    1_000,
    10,
    600_000,
    "The webhook outbox's drain (fans new events out to endpoints, re-enqueues due deliveries).",
  ),
  WEBHOOK_CONCURRENCY: integer({ default: 8, minimum: 1, maximum: 1_000, description: 'Concurrent webhook posts.' }),
  WEBHOOK_TIMEOUT_MS: milliseconds(10_000, 100, 60_000, 'How long a webhook receiver has to answer 2xx.'),
  WEBHOOK_RETRY_BASE_MS: milliseconds(
    10_000,
    10,
    3_600_000,
    'Webhook retries: capped exponential backoff with jitter; the defaults spread 14 attempts over about a day.',
  ),
  WEBHOOK_RETRY_MAX_MS: milliseconds(21_600_000, 10, 86_400_000, 'Webhook retries: the backoff cap.'),
  WEBHOOK_MAX_ATTEMPTS: integer({
    default: 14,
    minimum: 1,
    maximum: 100,
    description: 'Attempts per webhook delivery.',
  }),
  WEBHOOK_RETENTION_DAYS: integer({
    default: 30,
    minimum: 1,
    maximum: 3_650,
    description:
      'Settled webhook events (all deliveries delivered or failed) and their deliveries are deleted after this many days; pending ones stay.',
  }),
  WEBHOOK_PRUNE_INTERVAL_MS: milliseconds(3_600_000, 1_000, 86_400_000, 'Period of the webhook retention pass.'),
  EVIDENCE_INTERVAL_MS: milliseconds(
    60_000,
    100,
    86_400_000,
    'How often open reconciliation cases are re-checked on chain and on Fragment.',
  ),
  FRAGMENT_LOGIN_RECHECK_MS: milliseconds(
    60_000,
    1_000,
    86_400_000,
    'How often a Fragment login found logged out (taken out of rotation) has its page read again; once it shows a live login it is used again, without a restart.',
  ),
  ...PRICE_REFRESHER_VARIABLES,
} as const;

export function loadWorkerConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (message: string) => void = () => {},
): WorkerConfig {
  const { values, problems } = readEnvironment(WORKER_VARIABLES, env);
  const shared = sharedConfig(values);
  const address = (name: string, value: string): Address => {
    try {
      return Address.parse(value);
    } catch {
      problems.push(`${name} must be a TON address (got "${value}")`);
      return Address.parse(MAINNET_USDT_MASTER);
    }
  };
  const units = (name: keyof typeof values, value: string, decimals: number): bigint => {
    try {
      return parseUnits(value, decimals);
    } catch {
      problems.push(`${name} must be a non-negative decimal with at most ${decimals} decimals (got "${value}")`);
      return 0n;
    }
  };

  const variableCookies = splitCookieSets(values.FRAGMENT_COOKIES ?? '');
  let cookiesFile: { path: string; text: string; pollMs: number } | undefined;
  if (values.FRAGMENT_COOKIES_FILE) {
    try {
      const text = readFileSync(values.FRAGMENT_COOKIES_FILE, 'utf8');
      cookiesFile = { path: values.FRAGMENT_COOKIES_FILE, text, pollMs: values.FRAGMENT_COOKIES_FILE_POLL_MS };
    } catch (error) {
      problems.push(`FRAGMENT_COOKIES_FILE cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }

  const receivers: string[] = [];
  for (const entry of commaList(values.FRAGMENT_RECEIVING_ADDRESSES)) {
    try {
      receivers.push(Address.parse(entry).toRawString());
    } catch {
      problems.push(`FRAGMENT_RECEIVING_ADDRESSES: "${entry}" is not a TON address`);
    }
  }
  let keyRing: KeyRing | undefined;
  try {
    keyRing = loadKeyRing({
      value: values.STARSGATE_SECRET_KEY,
      dataDir: values.STARSGATE_DATA_DIR,
      allowGenerated: values.NODE_ENV !== 'production',
      warn,
    });
  } catch (error) {
    problems.push((error as Error).message);
  }

  const config: WorkerConfig = {
    databaseUrl: shared.databaseUrl,
    databasePooler: shared.databasePooler,
    redisUrl: shared.redisUrl,
    bullPrefix: shared.bullPrefix,
    concurrency: values.WORKER_CONCURRENCY,
    logLevel: shared.logLevel,
    sweepIntervalMs: values.SWEEP_INTERVAL_MS,
    sweepBatchSize: values.SWEEP_BATCH_SIZE,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    metricsPort: values.WORKER_METRICS_PORT,
    metricsHost: values.WORKER_METRICS_HOST,

    network: shared.network,
    fragmentBaseUrl: shared.fragmentBaseUrl,
    fragmentCookies: [...variableCookies, ...(cookiesFile ? cookieSetsOfText(cookiesFile.text) : [])],
    fragmentProxyUrls: splitProxyUrls(values.FRAGMENT_PROXY_URL),
    fragmentTimeoutMs: values.FRAGMENT_TIMEOUT_MS,
    toncenterUrl: shared.toncenter.url,
    toncenterApiKey: shared.toncenter.apiKey,
    toncenterRps: shared.toncenter.rps,
    usdtMaster: address('USDT_MASTER_ADDRESS', shared.usdtMaster),
    fragmentReceivingAddresses: receivers,
    fragmentFromMustMatch: values.FRAGMENT_FROM_MUST_MATCH,
    priceToleranceBps: values.PRICE_TOLERANCE_BPS,
    maxSpendGramNano: units('MAX_SPEND_GRAM', values.MAX_SPEND_GRAM, GRAM_DECIMALS),
    maxSpendUsdtUnits: units('MAX_SPEND_USDT', values.MAX_SPEND_USDT, USDT_DECIMALS),
    gramFeeReserveNano: units('GRAM_FEE_RESERVE', values.GRAM_FEE_RESERVE, GRAM_DECIMALS),
    jettonGasAttachNano: units('JETTON_GAS_ATTACH', values.JETTON_GAS_ATTACH, GRAM_DECIMALS),
    batchMax: values.BATCH_MAX,
    leaseMs: values.LEASE_MS,
    jobLockMs: values.JOB_LOCK_MS,
    maxAges: {
      preparingMs: values.PREPARING_MAX_AGE_MS,
      waitingToSendMs: values.WAITING_TO_SEND_MAX_AGE_MS,
      submittedMs: values.SUBMITTED_MAX_AGE_MS,
      confirmingMs: values.CONFIRMING_MAX_AGE_MS,
    },
    deliveryProof: values.DELIVERY_PROOF,
    fragmentAccountScope: values.FRAGMENT_ACCOUNT_SCOPE,
    retryBaseMs: values.RETRY_BASE_MS,
    retryMaxMs: values.RETRY_MAX_MS,
    priceBookWaitMs: values.PRICE_BOOK_WAIT_MS,
    pollIntervalMs: values.POLL_INTERVAL_MS,
    fastPollMs: values.FAST_POLL_MS,
    waitLookMaxMs: values.WAIT_LOOK_MAX_MS,
    walletBusyRetryMs: values.WALLET_BUSY_RETRY_MS,
    validUntilMarginMs: values.VALID_UNTIL_MARGIN_MS,
    minValiditySeconds: values.MIN_VALIDITY_SECONDS,
    maxValiditySeconds: values.MAX_VALIDITY_SECONDS,
    maxPriceToBookPercent: values.MAX_PRICE_TO_BOOK_PERCENT,
    keyRing: keyRing as KeyRing,
    prices: priceRefresherConfig(values, shared),
    crashAt: values.STARSGATE_CRASH_AT,
    webhooks: {
      drainIntervalMs: values.WEBHOOK_DRAIN_INTERVAL_MS,
      concurrency: values.WEBHOOK_CONCURRENCY,
      timeoutMs: values.WEBHOOK_TIMEOUT_MS,
      retryBaseMs: values.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: values.WEBHOOK_RETRY_MAX_MS,
      maxAttempts: values.WEBHOOK_MAX_ATTEMPTS,
      retentionDays: values.WEBHOOK_RETENTION_DAYS,
      pruneIntervalMs: values.WEBHOOK_PRUNE_INTERVAL_MS,
      allowPrivate: privateAddressAllowance(values.WEBHOOK_ALLOW_PRIVATE),
    },
    evidenceIntervalMs: values.EVIDENCE_INTERVAL_MS,
    fragmentLoginRecheckMs: values.FRAGMENT_LOGIN_RECHECK_MS,
    fragmentCookieSources: { variable: variableCookies, ...(cookiesFile ? { file: cookiesFile } : {}) },
  };
  if (config.fragmentReceivingAddresses.length === 0) {
    warn(
      'FRAGMENT_RECEIVING_ADDRESSES is empty: every payment will be rejected by policy (PAYMENT_REJECTED_BY_POLICY).',
    );
  }
  const proxies = config.fragmentProxyUrls.length;
  if (proxies > 1 && proxies !== config.fragmentCookies.length)
    problems.push(
      `FRAGMENT_PROXY_URL lists ${proxies} proxies for ${config.fragmentCookies.length} logins of FRAGMENT_COOKIES: give one for all, or one per login in the same order`,
    );
  if (config.fragmentCookies.length === 0)
    warn(
      'FRAGMENT_COOKIES (and FRAGMENT_COOKIES_FILE) name no login: purchases will fail with UPSTREAM_SESSION_INVALID.',
    );
  problems.push(...sharedConfigProblems(shared, values.NODE_ENV === 'production'));
  finishConfig(problems);
  return config;
}
