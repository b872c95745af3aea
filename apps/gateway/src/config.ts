import path from 'node:path';
import {
  boolean,
  commaList,
  finishConfig,
  integer,
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
import type { AdminAuthFailureLimits } from './admin/admin-auth-failures';
import { ADMIN_TOKEN_MIN_CHARS, adminTokenWeakness } from './admin/admin-token-strength';
import type { CheckoutSubmissionLimits } from './checkouts/checkout-submission-limits';
import type { ExpensiveRouteLimits } from './http/expensive-route-limits';
import { trustProxyOf, TRUST_PROXY_VARIABLE, type TrustProxy } from './http/trust-proxy';
import { readsConfig, READS_VARIABLES, type ReadsConfig } from './reads-config';

export { ADMIN_TOKEN_MIN_CHARS };

export interface GatewayConfig {
  /** TON Connect `ton_proof` for checkouts (docs/security.md, attacks 19a and 28). */
  tonProof: { required: boolean; domains: string[]; ttlSeconds: number };
  port: number;
  /** The operator listener: `/metrics`, `/admin`, Bull Board and `/admin/api` (docs/security.md, attack 15). */
  adminPort: number;
  host: string;
  /** ADMIN_HOST: where the operator listener binds; loopback unless configured (docs/security.md, attack 21). */
  adminHost: string;
  databaseUrl: string;
  databasePooler: SharedConfig['databasePooler'];
  databasePoolSize: number;
  redisUrl: string;
  bullPrefix: string;
  network: 'mainnet' | 'testnet';
  /** toncenter's API root, key and shared request rate (docs/ton.md §9). */
  toncenter: SharedConfig['toncenter'];
  usdtMaster: string;
  /** `STARSGATE_SEAL_KEY`: the worker's public key, all the gateway needs to store a secret. */
  sealKey: string | undefined;
  /** Only to refuse it in production: the key that opens secrets belongs to the worker. */
  secretKey: string | undefined;
  /** `STARSGATE_FINGERPRINT_KEY`: the idempotency fingerprints' own key ring. */
  fingerprintKey: string | undefined;
  dataDir: string;
  production: boolean;
  logLevel: string;
  bodyLimitBytes: number;
  rateLimit: { windowSeconds: number; max: number };
  /** Lower limits and a reserved derivation budget for the expensive anonymous routes (docs/security.md, attack 6). */
  expensiveRoutes: ExpensiveRouteLimits;
  /** Which proxies' `X-Forwarded-For` names the client (http/trust-proxy.ts). */
  trustProxy: TrustProxy;
  /** ADMIN_TRUST_PROXY: the same for the operator listener, where nothing sits in front unless configured. */
  adminTrustProxy: TrustProxy;
  /** TRUST_CLIENT_TRACE_CONTEXT: a public request's `traceparent` parents our span instead of only being linked. */
  trustClientTraceContext: boolean;
  /** Browser origins allowed to call /api/v1 (CORS), e.g. a shop page or the sandbox's /demo/checkout. */
  corsAllowedOrigins: string[];
  idempotencyLockTimeoutMs: number;
  shutdownTimeoutMs: number;
  /** Availability checks and prices (reads-config.ts). */
  reads: ReadsConfig;
  /** Bearer tokens of the operator API (`/admin/api`); none: the admin routes do not exist. */
  adminTokens: string[];
  /** Failed admin authentications allowed per client and in total per window (docs/security.md, attack 3). */
  adminAuthFailures: AdminAuthFailureLimits;
  /** BULL_BOARD_WRITABLE: Bull Board may retry, remove, clean or pause jobs (each audited); read-only otherwise. */
  bullBoardWritable: boolean;
  /** Allow plain-http webhook URLs to non-loopback hosts. */
  webhookAllowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: non-public addresses a webhook URL may resolve to (none unless set). */
  webhookAllowPrivate: PrivateAddressAllowance;
  /** After valid_until, how long "not on chain" is not yet proof of non-execution (as the worker's). */
  validUntilMarginMs: number;
  /** Caps on orders accepted but not yet paid (docs/security.md, attack 4). */
  openOrders: { perPayer: number; total: number; retryAfterSeconds: number };
  /** `POST /checkouts/:id/submitted`'s own limits (docs/security.md, attack 17). */
  checkoutSubmissions: CheckoutSubmissionLimits;
  /** Checkouts one payer wallet may have waiting to be paid (docs/security.md, attack 17). */
  openCheckoutsPerPayer: number;
}

const count = (fallback: number, minimum: number, maximum: number, description: string) =>
  integer({ default: fallback, minimum, maximum, description });
const perClientShare = (share: string, description: string) =>
  integer({
    minimum: 1,
    maximum: 1_000_000,
    defaultText: `RATE_LIMIT_MAX / ${share}`,
    exampleCommented: true,
    description,
  });

/** Every variable the gateway reads. Add one here (and use it below); `npm run config:docs` documents it. */
export const GATEWAY_VARIABLES = {
  ...SHARED_VARIABLES,
  STARSGATE_SECRET_KEY: { ...SECRET_KEY_VARIABLE, refused: true },
  STARSGATE_SEAL_KEY: string({
    secret: true,
    description:
      'Gateway only: the public half of the worker\'s primary key, "id:base64" (`starsgate keys public`). The gateway seals wallet and webhook secrets to it and cannot open them. Required in production.',
  }),
  STARSGATE_FINGERPRINT_KEY: string({
    secret: true,
    description:
      'Gateway only: the key of idempotency fingerprints, "id:base64(32 bytes)[,older-id:base64]", its own secret (never a key that opens secrets). Required in production; development generates one.',
  }),
  PORT: port({
    default: 8080,
    description: 'Port of the public API: /api/v1, /livez, /readyz, /openapi.json and /docs.',
  }),
  ADMIN_PORT: port({
    default: 8081,
    description:
      'Port of the operator listener: /metrics, /admin (dashboard), Bull Board and /admin/api. Keep it off the public ingress (docs/security.md, attack 15); must differ from PORT.',
  }),
  HOST: string({ default: '0.0.0.0', description: 'Address the API listens on.' }),
  ADMIN_HOST: string({
    default: '127.0.0.1',
    description:
      'Address the operator listener (ADMIN_PORT) binds: loopback unless set. Containers set 0.0.0.0 (k8s keeps the port to monitoring with a NetworkPolicy, compose publishes it on the host loopback).',
  }),
  DATABASE_POOL_SIZE: count(20, 1, 500, 'Connections per gateway process.'),
  BODY_LIMIT_BYTES: count(16_384, 1_024, 1_048_576, 'Largest accepted JSON body, bytes.'),
  RATE_LIMIT_WINDOW_SECONDS: count(60, 1, 3_600, 'Window of the per-client rate limits.'),
  RATE_LIMIT_MAX: count(
    600,
    1,
    1_000_000,
    'Requests per client IP per window, counted in Redis across all gateway replicas.',
  ),
  TRUST_PROXY: TRUST_PROXY_VARIABLE,
  ADMIN_TRUST_PROXY: string({
    default: 'false',
    description:
      "TRUST_PROXY for the operator listener: nothing sits in front of it unless you put a proxy there, so X-Forwarded-For is ignored (the client is the TCP peer) unless this names that proxy's hop count or addresses.",
  }),
  TRUST_CLIENT_TRACE_CONTEXT: boolean({
    default: false,
    description:
      "With tracing on: a public request's W3C trace context (traceparent) makes the gateway's span its child. Off: every public request starts its own trace and only links the client's, so clients choose neither our trace ids nor our sampling.",
  }),
  WALLET_RESOLVE_RATE_LIMIT_MAX: perClientShare(
    '10',
    "Wallet resolutions per client per RATE_LIMIT_WINDOW_SECONDS: an expensive anonymous route's own limit, beside the general one.",
  ),
  AVAILABILITY_RATE_LIMIT_MAX: perClientShare('10', 'Availability checks per client per RATE_LIMIT_WINDOW_SECONDS.'),
  CHECKOUT_RATE_LIMIT_MAX: perClientShare('10', 'Client-signed checkouts per client per RATE_LIMIT_WINDOW_SECONDS.'),
  MNEMONIC_RATE_LIMIT_MAX: perClientShare(
    '20',
    'Requests carrying a new seed phrase per client per RATE_LIMIT_WINDOW_SECONDS.',
  ),
  KEY_DERIVATIONS_PER_MINUTE: count(
    600,
    1,
    1_000_000,
    'New seed phrases (one PBKDF2 derivation each) per minute for all clients and replicas together.',
  ),
  KEY_DERIVATIONS_RESERVED_FOR_PURCHASES: count(
    200,
    0,
    1_000_000,
    'The part of KEY_DERIVATIONS_PER_MINUTE only purchases may use, so wallet resolutions cannot spend it; must be below it.',
  ),
  CORS_ALLOWED_ORIGINS: string({
    description:
      "Browser origins (comma-separated) allowed to call /api/v1 with CORS, e.g. a shop page creating client-signed checkouts. Empty: no CORS headers. `npm start` allows the sandbox's /demo/checkout.",
  }),
  IDEMPOTENCY_LOCK_TIMEOUT_MS: count(
    2_000,
    10,
    30_000,
    'How long a duplicate request waits for a concurrent one holding the same idempotency key before answering 409 IDEMPOTENCY_REQUEST_IN_PROGRESS.',
  ),
  SHUTDOWN_TIMEOUT_MS: count(
    10_000,
    0,
    120_000,
    'SIGTERM: readiness turns 503 at once; in-flight requests (the worker: running jobs) get this long to finish.',
  ),
  STARSGATE_ADMIN_TOKENS: string({
    secret: true,
    description:
      'Bearer tokens of the operator API (/admin/api and the `starsgate` CLI), comma separated so a token can be rotated without downtime; each at least 32 random characters (`starsgate admin-token`, from the cli image, prints one). Unset: the admin routes do not exist (404). `npm start` generates a development token into $STARSGATE_DATA_DIR/admin-token when unset.',
  }),
  ADMIN_AUTH_FAILURE_WINDOW_SECONDS: count(900, 1, 86_400, 'Window of the failed admin authentication limits.'),
  ADMIN_AUTH_FAILURES_PER_CLIENT: count(
    10,
    1,
    100_000,
    'Failed admin authentications (wrong bearer token, wrong dashboard login) allowed per client per window; beyond it every token check answers 429 ADMIN_AUTH_RATE_LIMITED until the window ends.',
  ),
  ADMIN_AUTH_FAILURES_GLOBAL: count(100, 1, 1_000_000, 'Failed admin authentications allowed in total per window.'),
  BULL_BOARD_WRITABLE: boolean({
    default: false,
    description:
      'Bull Board (/admin/queues) may retry, remove, clean or pause jobs, each change recorded in admin_actions first; otherwise it is read-only.',
  }),
  WEBHOOK_ALLOW_HTTP: boolean({
    default: false,
    description: 'Allow plain-http webhook URLs to hosts other than loopback (https is always allowed).',
  }),
  OPEN_ORDERS_PER_PAYER: count(
    1_000,
    1,
    10_000_000,
    "Orders accepted but not yet paid (queued, preparing, awaiting_signature) each hold a Fragment order on the operator's login: intake answers 429 OPEN_ORDERS_LIMIT_REACHED (with retry_after) past this many per payer wallet.",
  ),
  OPEN_ORDERS_TOTAL: count(20_000, 1, 10_000_000, 'The same cap on open orders, in total.'),
  OPEN_ORDERS_RETRY_AFTER_SECONDS: count(30, 1, 3_600, 'retry_after of OPEN_ORDERS_LIMIT_REACHED.'),
  TON_PROOF_REQUIRED: boolean({
    defaultText: 'true when NODE_ENV=production, else false',
    description:
      "A checkout must carry TON Connect's ton_proof for its payer (payload from POST /api/v1/checkouts/ton-proof-payload): 400 CHECKOUT_PROOF_REQUIRED otherwise. A checkout without one is keyed to its client, not its payer.",
  }),
  TON_PROOF_DOMAINS: string({
    default: '',
    description:
      "Comma-separated app domains (the TON Connect manifest URL's host, e.g. shop.example.com) a ton_proof may name. Required when TON_PROOF_REQUIRED is on.",
  }),
  TON_PROOF_TTL_SECONDS: count(
    900,
    60,
    86_400,
    'How long an issued ton_proof payload stays valid, and the oldest a proof may be.',
  ),
  CHECKOUT_SUBMIT_RATE_LIMIT_MAX: perClientShare(
    '10',
    'Signed transactions submitted to checkouts (POST /checkouts/:id/submitted) per client per RATE_LIMIT_WINDOW_SECONDS.',
  ),
  CHECKOUT_SUBMISSIONS_PER_MINUTE: count(
    6,
    1,
    1_000,
    'Signed transactions submitted to one checkout per minute, from all clients together: each may cost chain reads on the shared toncenter budget; past it 429 CHECKOUT_SUBMISSIONS_LIMITED.',
  ),
  OPEN_CHECKOUTS_PER_PAYER: count(
    5,
    1,
    10_000,
    "Client-signed checkouts one payer wallet may have waiting to be paid (queued, preparing, awaiting_signature); the worker watches each payer's account on the shared toncenter budget: past it 429 OPEN_CHECKOUTS_LIMIT_REACHED.",
  ),
  ...READS_VARIABLES,
} as const;

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const { values, problems } = readEnvironment(GATEWAY_VARIABLES, env);
  const production = values.NODE_ENV === 'production';
  const shared = sharedConfig(values);
  // The expensive routes' per-client limits default to a share of the general one (600 → 60 and 30).
  const share = (divisor: number): number => Math.max(1, Math.floor(values.RATE_LIMIT_MAX / divisor));
  const config: GatewayConfig = {
    port: values.PORT,
    adminPort: values.ADMIN_PORT,
    host: values.HOST,
    adminHost: values.ADMIN_HOST,
    databaseUrl: shared.databaseUrl,
    databasePooler: shared.databasePooler,
    databasePoolSize: values.DATABASE_POOL_SIZE,
    redisUrl: shared.redisUrl,
    bullPrefix: shared.bullPrefix,
    network: shared.network,
    toncenter: shared.toncenter,
    usdtMaster: shared.usdtMaster,
    sealKey: values.STARSGATE_SEAL_KEY,
    secretKey: values.STARSGATE_SECRET_KEY,
    fingerprintKey: values.STARSGATE_FINGERPRINT_KEY,
    dataDir: path.resolve(values.STARSGATE_DATA_DIR),
    production,
    logLevel: shared.logLevel,
    bodyLimitBytes: values.BODY_LIMIT_BYTES,
    rateLimit: { windowSeconds: values.RATE_LIMIT_WINDOW_SECONDS, max: values.RATE_LIMIT_MAX },
    expensiveRoutes: {
      walletResolvePerClient: values.WALLET_RESOLVE_RATE_LIMIT_MAX ?? share(10),
      availabilityPerClient: values.AVAILABILITY_RATE_LIMIT_MAX ?? share(10),
      checkoutPerClient: values.CHECKOUT_RATE_LIMIT_MAX ?? share(10),
      mnemonicPerClient: values.MNEMONIC_RATE_LIMIT_MAX ?? share(20),
      keyDerivationsPerMinute: values.KEY_DERIVATIONS_PER_MINUTE,
      keyDerivationsReservedForPurchases: values.KEY_DERIVATIONS_RESERVED_FOR_PURCHASES,
    },
    trustProxy: trustProxyOf(values.TRUST_PROXY, problems),
    adminTrustProxy: trustProxyOf(values.ADMIN_TRUST_PROXY, problems, 'ADMIN_TRUST_PROXY'),
    trustClientTraceContext: values.TRUST_CLIENT_TRACE_CONTEXT,
    corsAllowedOrigins: commaList(values.CORS_ALLOWED_ORIGINS).map((origin) => origin.replace(/\/$/, '')),
    idempotencyLockTimeoutMs: values.IDEMPOTENCY_LOCK_TIMEOUT_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    reads: readsConfig(values, problems, production, shared),
    adminTokens: commaList(values.STARSGATE_ADMIN_TOKENS),
    adminAuthFailures: {
      windowSeconds: values.ADMIN_AUTH_FAILURE_WINDOW_SECONDS,
      perClient: values.ADMIN_AUTH_FAILURES_PER_CLIENT,
      global: values.ADMIN_AUTH_FAILURES_GLOBAL,
    },
    bullBoardWritable: values.BULL_BOARD_WRITABLE,
    webhookAllowHttp: values.WEBHOOK_ALLOW_HTTP,
    webhookAllowPrivate: privateAddressAllowance(values.WEBHOOK_ALLOW_PRIVATE),
    validUntilMarginMs: values.VALID_UNTIL_MARGIN_MS,
    tonProof: {
      required: values.TON_PROOF_REQUIRED ?? production,
      domains: commaList(values.TON_PROOF_DOMAINS).map((domain) => domain.toLowerCase()),
      ttlSeconds: values.TON_PROOF_TTL_SECONDS,
    },
    openOrders: {
      perPayer: values.OPEN_ORDERS_PER_PAYER,
      total: values.OPEN_ORDERS_TOTAL,
      retryAfterSeconds: values.OPEN_ORDERS_RETRY_AFTER_SECONDS,
    },
    checkoutSubmissions: {
      perClient: values.CHECKOUT_SUBMIT_RATE_LIMIT_MAX ?? share(10),
      perCheckoutPerMinute: values.CHECKOUT_SUBMISSIONS_PER_MINUTE,
    },
    openCheckoutsPerPayer: values.OPEN_CHECKOUTS_PER_PAYER,
  };
  if (config.tonProof.required && config.tonProof.domains.length === 0)
    problems.push('TON_PROOF_DOMAINS: name the app domains a ton_proof may carry (TON_PROOF_REQUIRED is on)');
  const weakTokens = config.adminTokens.flatMap((token, index) => {
    const weakness = adminTokenWeakness(token);
    return weakness ? [`token ${index + 1}: ${weakness}`] : [];
  });
  if (weakTokens.length > 0)
    problems.push(
      `STARSGATE_ADMIN_TOKENS: every token needs at least ${ADMIN_TOKEN_MIN_CHARS} random characters (${weakTokens.join('; ')}) ` +
        '(generate one with `starsgate admin-token` (the cli image) or `openssl rand -base64 32`)',
    );
  if (config.adminPort !== 0 && config.adminPort === config.port)
    problems.push('ADMIN_PORT must differ from PORT: the operator surfaces have their own listener');
  if (config.expensiveRoutes.keyDerivationsReservedForPurchases >= config.expensiveRoutes.keyDerivationsPerMinute)
    problems.push('KEY_DERIVATIONS_RESERVED_FOR_PURCHASES must be below KEY_DERIVATIONS_PER_MINUTE');
  problems.push(...sharedConfigProblems(shared, production));
  if (production && !config.sealKey) problems.push('STARSGATE_SEAL_KEY is required when NODE_ENV=production');
  if (production && config.secretKey)
    problems.push('STARSGATE_SECRET_KEY belongs to the worker only: give the gateway STARSGATE_SEAL_KEY');
  if (production && !config.fingerprintKey)
    problems.push('STARSGATE_FINGERPRINT_KEY is required when NODE_ENV=production');
  finishConfig(problems);
  return config;
}
