/**
 * Configuration of availability checks and prices (the "Availability and prices" section of
 * .env.example). Read by loadGatewayConfig; the worker's price refresher reads its own subset.
 */
import {
  integer,
  string,
  type EnvironmentValues,
  type SharedConfig,
  FRAGMENT_COOKIES_VARIABLE,
  FRAGMENT_PROXY_URL_VARIABLE,
} from '@starsgate/platform';
import { PAYMENT_METHODS, PRODUCTS } from '@starsgate/domain';
import { parseDisabledPaymentMethods, splitCookieSets, splitProxyUrls, withoutWalletToken } from '@starsgate/fragment';

const seconds = (fallback: number, maximum: number, description: string) =>
  integer({ default: fallback, minimum: 0, maximum, description });

export const READS_VARIABLES = {
  FRAGMENT_COOKIES: FRAGMENT_COOKIES_VARIABLE,
  FRAGMENT_PROXY_URL: FRAGMENT_PROXY_URL_VARIABLE,
  FRAGMENT_READ_COOKIES: string({
    secret: true,
    defaultText: 'the first login of FRAGMENT_COOKIES, without stel_ton_token',
    description:
      "Cookie header of the Fragment login used for availability checks and prices. A separate login (base cookies suffice for search and prices) keeps public traffic off the paying session. Leave out stel_ton_token: reads need no wallet, and a second holder of the rotating wallet token pushes the workers' copy out of what Fragment accepts (docs/fragment-protocol.md §20.2). Required (this or FRAGMENT_COOKIES) with NODE_ENV=production. A credential: never logged.",
  }),
  FRAGMENT_READ_TIMEOUT_MS: integer({
    default: 5_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Per Fragment HTTP call of a read. A Fragment 429 is never slept on.',
  }),
  FRAGMENT_READ_TRIES: integer({ default: 2, minimum: 1, maximum: 5, description: 'Tries per read (1 = no retry).' }),
  DISABLED_PAYMENT_METHODS: string({
    description: `Payment methods to switch off: ${PAYMENT_METHODS.join(', ')} (every product) or <product>:<method> for one product of GET /api/v1/products (e.g. ${PRODUCTS[0]}:usdt), comma separated. Availability then answers PAYMENT_METHOD_UNAVAILABLE without asking Fragment.`,
  }),
  AVAILABILITY_CACHE_TTL_SECONDS: seconds(30, 3_600, 'How long an AVAILABLE answer is reused. 0 = do not cache.'),
  AVAILABILITY_NEGATIVE_CACHE_TTL_SECONDS: seconds(
    60,
    3_600,
    'How long a rejection (not found, ineligible, or a refusal a product declares) is reused. 0 = do not cache.',
  ),
  AVAILABILITY_DEADLINE_MS: integer({
    default: 8_000,
    minimum: 100,
    maximum: 60_000,
    description:
      'Longest an availability check waits for Fragment before answering 503 (the lookup keeps running and fills the cache).',
  }),
  FRAGMENT_READS_PER_MINUTE: integer({
    default: 60,
    minimum: 1,
    maximum: 100_000,
    description:
      'Fragment reads per minute for all replicas together (Redis); counts Fragment calls (cache misses), not client requests. Over budget: 429 AVAILABILITY_RATE_LIMITED with retry_after (prices fall back to stale values).',
  }),
  AVAILABILITY_LOOKUPS_PER_USERNAME_PER_MINUTE: integer({
    default: 6,
    minimum: 1,
    maximum: 10_000,
    description: 'Fragment lookups of one username per minute, for all replicas together.',
  }),
  FRAGMENT_RATE_LIMIT_COOLDOWN_SECONDS: seconds(
    5,
    3_600,
    'Pause of all Fragment reads after Fragment answers 429 without Retry-After (its Retry-After wins).',
  ),
  PRICES_QUOTE_TTL_SECONDS: seconds(30, 3_600, 'A quote younger than this is served without asking Fragment.'),
  PRICES_STALE_AFTER_SECONDS: seconds(
    300,
    86_400,
    'The price list is flagged stale (and the gateway refreshes it itself) once older than this.',
  ),
  PRICES_KEEP_LAST_KNOWN_SECONDS: seconds(
    86_400,
    30 * 86_400,
    'How long Fragment\'s price for a given Star count is kept as the "last known" fallback.',
  ),
  PRICES_FAILURE_BACKOFF_SECONDS: seconds(
    5,
    3_600,
    'After a failed price fetch, serve last known prices without asking Fragment for this long.',
  ),
  PRICES_DEADLINE_MS: integer({
    default: 5_000,
    minimum: 100,
    maximum: 60_000,
    description: 'Longest a price request waits for Fragment before falling back to the last known value.',
  }),
  READS_MEMORY_CACHE_MS: integer({
    default: 1_000,
    minimum: 0,
    maximum: 10_000,
    description: 'In-process cache in front of Redis for hot reads (adds at most this much staleness; 0 = off).',
  }),
} as const;

export interface ReadsConfig {
  fragment: {
    baseUrl: string;
    /** Cookie header of the Fragment login used for reads. A credential: never log it. */
    cookies: string | undefined;
    /** FRAGMENT_PROXY_URL's first proxy, if any. A credential: never log it. */
    proxyUrl: string | undefined;
    timeoutMs: number;
    tries: number;
  };
  /** Redis key prefix shared with the worker's price refresher. */
  redisPrefix: string;
  disabledPaymentMethods: ReadonlySet<string>;
  availability: { positiveTtlMs: number; negativeTtlMs: number; deadlineMs: number };
  limits: { globalPerMinute: number; perUsernamePerMinute: number; cooldownMs: number };
  prices: {
    quoteTtlMs: number;
    staleAfterMs: number;
    keepLastKnownMs: number;
    failureBackoffMs: number;
    deadlineMs: number;
  };
  memoryTtlMs: number;
}

export function readsConfig(
  values: EnvironmentValues<typeof READS_VARIABLES>,
  problems: string[],
  production: boolean,
  shared: Pick<SharedConfig, 'fragmentBaseUrl' | 'readsRedisPrefix'>,
): ReadsConfig {
  // A separate login for public reads keeps recipient searches off the paying session's page
  // state (Fragment keeps flow state per cookie session, docs/fragment-protocol.md §12).
  const fallback = values.FRAGMENT_COOKIES;
  const cookies =
    values.FRAGMENT_READ_COOKIES ??
    (fallback !== undefined ? withoutWalletToken(splitCookieSets(fallback)[0] ?? '') : undefined);
  if (production && cookies === undefined) {
    problems.push(
      'FRAGMENT_READ_COOKIES or FRAGMENT_COOKIES is required when NODE_ENV=production: the Cookie header of the Fragment login used for availability checks and prices',
    );
  }
  const disabled = parseDisabledPaymentMethods(values.DISABLED_PAYMENT_METHODS);
  for (const problem of disabled.problems) problems.push(`DISABLED_PAYMENT_METHODS: ${problem}`);
  return {
    fragment: {
      baseUrl: shared.fragmentBaseUrl,
      cookies,
      proxyUrl: splitProxyUrls(values.FRAGMENT_PROXY_URL)[0],
      timeoutMs: values.FRAGMENT_READ_TIMEOUT_MS,
      tries: values.FRAGMENT_READ_TRIES,
    },
    redisPrefix: shared.readsRedisPrefix,
    disabledPaymentMethods: disabled.disabled,
    availability: {
      positiveTtlMs: values.AVAILABILITY_CACHE_TTL_SECONDS * 1000,
      negativeTtlMs: values.AVAILABILITY_NEGATIVE_CACHE_TTL_SECONDS * 1000,
      deadlineMs: values.AVAILABILITY_DEADLINE_MS,
    },
    limits: {
      globalPerMinute: values.FRAGMENT_READS_PER_MINUTE,
      perUsernamePerMinute: values.AVAILABILITY_LOOKUPS_PER_USERNAME_PER_MINUTE,
      cooldownMs: values.FRAGMENT_RATE_LIMIT_COOLDOWN_SECONDS * 1000,
    },
    prices: {
      quoteTtlMs: values.PRICES_QUOTE_TTL_SECONDS * 1000,
      staleAfterMs: values.PRICES_STALE_AFTER_SECONDS * 1000,
      keepLastKnownMs: values.PRICES_KEEP_LAST_KNOWN_SECONDS * 1000,
      failureBackoffMs: values.PRICES_FAILURE_BACKOFF_SECONDS * 1000,
      deadlineMs: values.PRICES_DEADLINE_MS,
    },
    memoryTtlMs: values.READS_MEMORY_CACHE_MS,
  };
}
