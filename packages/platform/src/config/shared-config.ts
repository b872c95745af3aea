import { DATABASE_URL_VARIABLE, integer, string, url, type EnvironmentValues } from '@starsgate/config';

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
/** none: DATABASE_URL is PostgreSQL itself; transaction: a pooler in transaction mode in front of it. */
export const DATABASE_POOLERS = ['none', 'transaction'] as const;

/** toncenter's own limits (docs/ton.md §9): 1 request per second without a key, 10 on the free keyed plan. */
export const TONCENTER_KEYLESS_RPS = 1;
export const TONCENTER_KEYED_RPS = 10;

/** The sandbox's demo values `.env.example` ships (SANDBOX_SEED=starsgate-demo; checked against a running sandbox by the image tests). */
const SANDBOX_DEMO_USDT_MASTER = 'EQCWtQ1bN6dvxkrjLKYhyY7mYNFx-XcmDyGol9VZ1CidC2KZ';

/** What the gateway and the worker read alike: declared once, here. */
export const SHARED_VARIABLES = {
  DATABASE_URL: DATABASE_URL_VARIABLE,
  DATABASE_POOLER: string({
    default: 'none',
    enum: DATABASE_POOLERS,
    description:
      'transaction: DATABASE_URL is a pooler in transaction mode (PgBouncer pool_mode = transaction): statements go unnamed, session settings come from the pooler\'s connect_query, and the service does not migrate (run migrate against PostgreSQL directly). docs/deployment.md "Connection budget".',
  }),
  REDIS_URL: url(['redis', 'rediss'], {
    default: DEFAULT_REDIS_URL,
    description:
      "Redis: carries BullMQ jobs, rate-limit counters, the Fragment sessions' flow leases and login states, and the cookies Fragment renews (sealed to the key ring). Losing it costs latency, never orders; the workers then start again from the configured Fragment cookies, which may be older than Fragment accepts (docs/operations.md).",
  }),
  BULLMQ_PREFIX: string({ default: DEFAULT_BULLMQ_PREFIX, description: "Key prefix of BullMQ's keys in Redis." }),
  TON_NETWORK: string({
    default: 'mainnet',
    enum: TON_NETWORKS,
    description: 'mainnet or testnet: wallet ids, address flags. The sandbox chain is mainnet-shaped.',
  }),
  LOG_LEVEL: string({ default: 'info', enum: LOG_LEVELS, description: 'Least severe log level written.' }),
  NODE_ENV: string({
    default: 'development',
    description: 'production turns on the production requirements (keys, Fragment logins) and refusals.',
  }),
  STARSGATE_DATA_DIR: string({
    default: '.data',
    description: 'Folder of development-generated keys and tokens (secret-key, admin-token, sandbox.env).',
  }),
  TONCENTER_URL: url(['http', 'https'], {
    default: DEFAULT_TONCENTER_URL,
    exampleCommented: true,
    description:
      'Chain provider (toncenter v2/v3 API root). The default is the sandbox chain (compose: http://sandbox:8090/toncenter); production: https://toncenter.com',
  }),
  TONCENTER_API_KEY: string({ secret: true, description: "toncenter's API key (raises its request limit)." }),
  TONCENTER_RPS: integer({
    minimum: 0,
    maximum: 10_000,
    defaultText: `${TONCENTER_KEYLESS_RPS} without TONCENTER_API_KEY, ${TONCENTER_KEYED_RPS} with one`,
    example: '0',
    description:
      "Requests per second to toncenter, shared by every gateway and worker replica through Redis (docs/ton.md §9); calls wait for their turn, and a 429 pauses every replica. Set your plan's rate (free 10, Plus 25, Advanced 100); 0 = unpaced (a self-hosted provider without a limit). As shipped: 0, as the sandbox's toncenter has no limit; production: remove this line or set your plan's rate.",
  }),
  USDT_MASTER_ADDRESS: string({
    default: MAINNET_USDT_MASTER,
    example: SANDBOX_DEMO_USDT_MASTER,
    description:
      "The USDT jetton master (default: Tether USD on mainnet). As shipped: the sandbox chain's USDT stand-in for SANDBOX_SEED=starsgate-demo; production: remove this line.",
  }),
  FRAGMENT_BASE_URL: url(['http', 'https'], {
    default: DEFAULT_FRAGMENT_BASE_URL,
    exampleCommented: true,
    description:
      'Fragment. The default is the sandbox simulator (compose: http://sandbox:8090/fragment); production: https://fragment.com',
  }),
  READS_REDIS_PREFIX: string({
    default: DEFAULT_READS_REDIS_PREFIX,
    description:
      'Redis key prefix of the availability and price caches, locks and budgets: the gateway and the worker must agree.',
  }),
  VALID_UNTIL_MARGIN_MS: integer({
    default: 30_000,
    minimum: 0,
    maximum: 600_000,
    description:
      'After a signed message\'s valid_until, how long indexers get before "not on chain" is final (the worker, and the operator API before it resolves a case as failed).',
  }),
  WEBHOOK_ALLOW_PRIVATE: string({
    default: 'none',
    enum: ['none', 'loopback', 'all', 'false', 'true'],
    description:
      'Webhook hosts must resolve to public addresses only (none). loopback also admits 127.0.0.0/8 and ::1 (`npm start` sets it, so a receiver on the same machine works); all admits private networks too (RFC 1918, link-local, CGNAT, ULA …): only for receivers inside your network.',
  }),
} as const;

export const FRAGMENT_COOKIES_VARIABLE = string({
  secret: true,
  example:
    'stel_ssid=9f5bf15a8ff6467bc7_8213839116410317385; stel_dt=0; stel_token=1abe4715cfc1a4f36b1e57b6c1333576edcb31e5c849e28d548bc7d29b8c361d; stel_ton_token=LyBwtnEylKxwnK7C0LWC4TUbV6rHt9MXdL6Y_3o0lIZRhX7OSOb-_prJPvFBvztFdEYTf0IB1linPP6cLgph9BygoxhRHSGy8rV8Hws2IC1tgiMs2LCFiba1Ft9JTyBk2Upk9E0NiKxchOiLfIptTTZikCT9wzF8',
  description:
    'The browser cookie header of a Fragment login with the paying wallet connected (stel_ssid=…; stel_dt=…; stel_token=…; stel_ton_token=…). A credential: never logged. Several login sessions, joined by " | ", let as many orders be created at once: Fragment allows one purchase flow at a time per session. As shipped: the sandbox simulator\'s demo login for SANDBOX_SEED=starsgate-demo (public, sandbox only).',
});

export const FRAGMENT_PROXY_URL_VARIABLE = string({
  secret: true,
  pattern: '^https?://[^\\s|]+( *\\| *https?://[^\\s|]+)*$',
  patternHint: 'an http: or https: proxy URL, or one per Fragment login joined by " | "',
  description:
    'HTTP or HTTPS proxy for calls to Fragment (http://user:password@host:port), for a host whose own address Cloudflare challenges or blocks (the doctor says "blocked by Cloudflare"). One URL serves every login; several, joined by " | ", give each login of FRAGMENT_COOKIES its own, in order (the availability login takes the first). May hold credentials: never logged.',
});

export const SECRET_KEY_VARIABLE = string({
  secret: true,
  description:
    'Worker only: the keys that open wallet and webhook secrets, "id:x25519:base64(32 bytes)[,older-id:...]" (`starsgate keys generate`, from the cli image, prints a set); the first seals new secrets, older ones (also legacy symmetric "id:base64") stay listed until `starsgate keys status` counts 0 for them. Required with NODE_ENV=production; in development generated once into $STARSGATE_DATA_DIR/secret-key. Never give it to the gateway (it refuses it in production): docs/security.md.',
});

/** What the gateway and the worker must agree on, from the shared variables. */
export interface SharedConfig {
  databaseUrl: string;
  /** DATABASE_POOLER: `transaction` when DATABASE_URL is PgBouncer in transaction mode. */
  databasePooler: (typeof DATABASE_POOLERS)[number];
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

export function sharedConfig(values: EnvironmentValues<typeof SHARED_VARIABLES>): SharedConfig {
  return {
    databaseUrl: values.DATABASE_URL,
    databasePooler: values.DATABASE_POOLER,
    redisUrl: values.REDIS_URL,
    bullPrefix: values.BULLMQ_PREFIX,
    network: values.TON_NETWORK,
    toncenter: {
      url: values.TONCENTER_URL,
      apiKey: values.TONCENTER_API_KEY,
      rps: values.TONCENTER_RPS ?? (values.TONCENTER_API_KEY ? TONCENTER_KEYED_RPS : TONCENTER_KEYLESS_RPS),
    },
    usdtMaster: values.USDT_MASTER_ADDRESS,
    fragmentBaseUrl: values.FRAGMENT_BASE_URL,
    readsRedisPrefix: values.READS_REDIS_PREFIX,
    logLevel: values.LOG_LEVEL,
  };
}

/**
 * Problems of the shared configuration that refuse a production start. toncenter.com meters every
 * key (docs/ton.md §9): unpaced (TONCENTER_RPS=0), every replica calls it as fast as it can and
 * the purchases stall on its 429s, so production names the plan's rate.
 */
export function sharedConfigProblems(config: Pick<SharedConfig, 'toncenter'>, production: boolean): string[] {
  if (!production || config.toncenter.rps !== 0) return [];
  let host: string;
  try {
    host = new URL(config.toncenter.url).hostname.toLowerCase();
  } catch {
    return [];
  }
  if (host !== 'toncenter.com' && !host.endsWith('.toncenter.com')) return [];
  return [
    `TONCENTER_RPS=0 (unpaced) is refused with ${host} when NODE_ENV=production: toncenter limits every key, and unpaced replicas stall on its 429s. Set your plan's rate (free 10, Plus 25, Advanced 100) or remove the line for the default`,
  ];
}
