import path from 'node:path';
import {
  EnvReader,
  readPrivateAddressAllowance,
  readSharedConfig,
  type PrivateAddressAllowance,
  type SharedConfig,
} from '@starsgate/platform';
import type { AdminAuthFailureLimits } from './admin/admin-auth-failures';
import type { ExpensiveRouteLimits } from './http/expensive-route-limits';
import { readTrustProxy, type TrustProxy } from './http/trust-proxy';
import { loadReadsConfig, type ReadsConfig } from './reads-config';

/** Admin tokens are bearer credentials: long enough that guessing within the failure limits is hopeless. */
export const ADMIN_TOKEN_MIN_CHARS = 32;

export interface GatewayConfig {
  port: number;
  /** The operator listener: `/metrics`, `/admin`, Bull Board and `/admin/api` (docs/security.md, attack 15). */
  adminPort: number;
  host: string;
  databaseUrl: string;
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
  /** Allow plain-http webhook URLs to non-loopback hosts. */
  webhookAllowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE: non-public addresses a webhook URL may resolve to (none unless set). */
  webhookAllowPrivate: PrivateAddressAllowance;
  /** After valid_until, how long "not on chain" is not yet proof of non-execution (as the worker's). */
  validUntilMarginMs: number;
  /** Caps on orders accepted but not yet paid (docs/security.md, attack 4). */
  openOrders: { perPayer: number; total: number; retryAfterSeconds: number };
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const read = new EnvReader(env);
  const production = read.string('NODE_ENV', 'development') === 'production';
  const shared = readSharedConfig(read);
  // The expensive routes' per-client limits default to a share of the general one (600 → 60 and 30).
  const generalMax = read.integer('RATE_LIMIT_MAX', 600, { min: 1, max: 1_000_000 });
  const share = (divisor: number): number => Math.max(1, Math.floor(generalMax / divisor));
  const config: GatewayConfig = {
    port: read.port('PORT', 8080),
    adminPort: read.port('ADMIN_PORT', 8081),
    host: read.string('HOST', '0.0.0.0'),
    databaseUrl: shared.databaseUrl,
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 20, { min: 1, max: 500 }),
    redisUrl: shared.redisUrl,
    bullPrefix: shared.bullPrefix,
    network: shared.network,
    toncenter: shared.toncenter,
    usdtMaster: shared.usdtMaster,
    sealKey: read.string('STARSGATE_SEAL_KEY'),
    secretKey: read.string('STARSGATE_SECRET_KEY'),
    fingerprintKey: read.string('STARSGATE_FINGERPRINT_KEY'),
    dataDir: path.resolve(read.string('STARSGATE_DATA_DIR', '.data')),
    production,
    logLevel: shared.logLevel,
    bodyLimitBytes: read.integer('BODY_LIMIT_BYTES', 16_384, { min: 1_024, max: 1_048_576 }),
    rateLimit: {
      windowSeconds: read.integer('RATE_LIMIT_WINDOW_SECONDS', 60, { min: 1, max: 3_600 }),
      max: generalMax,
    },
    expensiveRoutes: {
      walletResolvePerClient: read.integer('WALLET_RESOLVE_RATE_LIMIT_MAX', share(10), { min: 1, max: 1_000_000 }),
      availabilityPerClient: read.integer('AVAILABILITY_RATE_LIMIT_MAX', share(10), { min: 1, max: 1_000_000 }),
      checkoutPerClient: read.integer('CHECKOUT_RATE_LIMIT_MAX', share(10), { min: 1, max: 1_000_000 }),
      mnemonicPerClient: read.integer('MNEMONIC_RATE_LIMIT_MAX', share(20), { min: 1, max: 1_000_000 }),
      keyDerivationsPerMinute: read.integer('KEY_DERIVATIONS_PER_MINUTE', 600, { min: 1, max: 1_000_000 }),
      keyDerivationsReservedForPurchases: read.integer('KEY_DERIVATIONS_RESERVED_FOR_PURCHASES', 200, {
        min: 0,
        max: 1_000_000,
      }),
    },
    trustProxy: readTrustProxy(read),
    corsAllowedOrigins: (read.string('CORS_ALLOWED_ORIGINS') ?? '')
      .split(',')
      .map((origin) => origin.trim().replace(/\/$/, ''))
      .filter((origin) => origin.length > 0),
    idempotencyLockTimeoutMs: read.integer('IDEMPOTENCY_LOCK_TIMEOUT_MS', 2_000, { min: 10, max: 30_000 }),
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, { min: 0, max: 120_000 }),
    reads: loadReadsConfig(read, production, shared),
    adminTokens: (read.string('STARSGATE_ADMIN_TOKENS') ?? '')
      .split(',')
      .map((token) => token.trim())
      .filter((token) => token.length > 0),
    adminAuthFailures: {
      windowSeconds: read.integer('ADMIN_AUTH_FAILURE_WINDOW_SECONDS', 900, { min: 1, max: 86_400 }),
      perClient: read.integer('ADMIN_AUTH_FAILURES_PER_CLIENT', 10, { min: 1, max: 100_000 }),
      global: read.integer('ADMIN_AUTH_FAILURES_GLOBAL', 100, { min: 1, max: 1_000_000 }),
    },
    webhookAllowHttp: read.boolean('WEBHOOK_ALLOW_HTTP', false),
    webhookAllowPrivate: readPrivateAddressAllowance(read),
    validUntilMarginMs: read.integer('VALID_UNTIL_MARGIN_MS', 30_000, { min: 0, max: 600_000 }),
    openOrders: {
      perPayer: read.integer('OPEN_ORDERS_PER_PAYER', 1_000, { min: 1, max: 10_000_000 }),
      total: read.integer('OPEN_ORDERS_TOTAL', 20_000, { min: 1, max: 10_000_000 }),
      retryAfterSeconds: read.integer('OPEN_ORDERS_RETRY_AFTER_SECONDS', 30, { min: 1, max: 3_600 }),
    },
  };
  if (config.adminTokens.some((token) => token.length < ADMIN_TOKEN_MIN_CHARS))
    read.problem(
      `STARSGATE_ADMIN_TOKENS: every token needs at least ${ADMIN_TOKEN_MIN_CHARS} random characters ` +
        '(generate one with `npx starsgate admin-token` or `openssl rand -base64 32`)',
    );
  if (config.adminPort !== 0 && config.adminPort === config.port)
    read.problem('ADMIN_PORT must differ from PORT: the operator surfaces have their own listener');
  if (config.expensiveRoutes.keyDerivationsReservedForPurchases >= config.expensiveRoutes.keyDerivationsPerMinute)
    read.problem('KEY_DERIVATIONS_RESERVED_FOR_PURCHASES must be below KEY_DERIVATIONS_PER_MINUTE');
  if (production && !config.sealKey) read.problem('STARSGATE_SEAL_KEY is required when NODE_ENV=production');
  if (production && config.secretKey)
    read.problem('STARSGATE_SECRET_KEY belongs to the worker only: give the gateway STARSGATE_SEAL_KEY');
  if (production && !config.fingerprintKey)
    read.problem('STARSGATE_FINGERPRINT_KEY is required when NODE_ENV=production');
  read.finish();
  return config;
}
