import type { EnvReader } from './env-reader';

/** The local PostgreSQL of `npm start`; production sets DATABASE_URL. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/starsgate';
export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';
/** BullMQ's own default key prefix. */
export const DEFAULT_BULLMQ_PREFIX = 'bull';
/** The local sandbox chain; production sets https://toncenter.com. */
export const DEFAULT_TONCENTER_URL = 'http://127.0.0.1:8090/toncenter';
/** The sandbox's Fragment simulator (`npm run sandbox`); production sets https://fragment.com. */
export const DEFAULT_FRAGMENT_BASE_URL = 'http://127.0.0.1:8090/fragment';
/** Tether USD on TON (docs/ton.md §5.1): the only jetton accepted as USDT. */
export const MAINNET_USDT_MASTER = 'EQCxE6mUtQJKFnGfaROTKOt1lZbDiiX1kCixRv7Nw2Id_sDs';
/** Redis keys of availability checks and the price list: the gateway reads what the worker's refresher writes. */
export const DEFAULT_READS_REDIS_PREFIX = 'starsgate:reads:';
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'http', 'verbose', 'debug'] as const;
export const TON_NETWORKS = ['mainnet', 'testnet'] as const;

/** What the gateway and the worker must agree on: read once, here, by both. */
export interface SharedConfig {
  databaseUrl: string;
  redisUrl: string;
  bullPrefix: string;
  network: (typeof TON_NETWORKS)[number];
  /** `rps`: requests per second shared by every replica (TONCENTER_RPS; 0 = unpaced), docs/ton.md §9. */
  toncenter: { url: string; apiKey: string | undefined; rps: number };
  /** As configured; the worker parses it as a TON address. */
  usdtMaster: string;
  fragmentBaseUrl: string;
  /** Key prefix of the availability and price caches (READS_REDIS_PREFIX). */
  readsRedisPrefix: string;
  logLevel: (typeof LOG_LEVELS)[number];
}

/** toncenter's own limits (docs/ton.md §9): 1 request per second without a key, 10 on the free keyed plan. */
export const TONCENTER_KEYLESS_RPS = 1;
export const TONCENTER_KEYED_RPS = 10;

export function readSharedConfig(read: EnvReader): SharedConfig {
  const toncenterApiKey = read.string('TONCENTER_API_KEY');
  return {
    databaseUrl: read.url('DATABASE_URL', DEFAULT_DATABASE_URL, ['postgres:', 'postgresql:']),
    redisUrl: read.url('REDIS_URL', DEFAULT_REDIS_URL, ['redis:', 'rediss:']),
    bullPrefix: read.string('BULLMQ_PREFIX', DEFAULT_BULLMQ_PREFIX),
    network: read.oneOf('TON_NETWORK', 'mainnet', TON_NETWORKS),
    toncenter: {
      url: read.url('TONCENTER_URL', DEFAULT_TONCENTER_URL, ['http:', 'https:']),
      apiKey: toncenterApiKey,
      rps: read.integer('TONCENTER_RPS', toncenterApiKey ? TONCENTER_KEYED_RPS : TONCENTER_KEYLESS_RPS, {
        min: 0,
        max: 10_000,
      }),
    },
    usdtMaster: read.string('USDT_MASTER_ADDRESS', MAINNET_USDT_MASTER),
    fragmentBaseUrl: read.url('FRAGMENT_BASE_URL', DEFAULT_FRAGMENT_BASE_URL, ['http:', 'https:']),
    readsRedisPrefix: read.string('READS_REDIS_PREFIX', DEFAULT_READS_REDIS_PREFIX),
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
  };
}
