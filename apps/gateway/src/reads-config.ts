/**
 * Configuration of availability checks and prices (the "Availability and prices" section of
 * .env.example). Read by loadGatewayConfig; the worker's price refresher reads its own subset.
 */
import type { EnvReader, SharedConfig } from '@starsgate/platform';
import { parseDisabledPaymentMethods, splitCookieSets } from '@starsgate/fragment';

export interface ReadsConfig {
  fragment: {
    baseUrl: string;
    /** Cookie header of the Fragment login used for reads. A credential: never log it. */
    cookies: string | undefined;
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

export function loadReadsConfig(
  read: EnvReader,
  production: boolean,
  shared: Pick<SharedConfig, 'fragmentBaseUrl' | 'readsRedisPrefix'>,
): ReadsConfig {
  // A separate login for public reads keeps recipient searches off the paying session's page
  // state (Fragment keeps flow state per cookie session, docs/fragment-protocol.md §12).
  const fallback = read.string('FRAGMENT_COOKIES');
  const cookies =
    read.string('FRAGMENT_READ_COOKIES') ?? (fallback !== undefined ? (splitCookieSets(fallback)[0] ?? '') : undefined);
  if (production && cookies === undefined) {
    read.problem(
      'FRAGMENT_READ_COOKIES or FRAGMENT_COOKIES is required when NODE_ENV=production: the Cookie header of the Fragment login used for availability checks and prices',
    );
  }
  const disabled = parseDisabledPaymentMethods(read.string('DISABLED_PAYMENT_METHODS'));
  for (const problem of disabled.problems) read.problem(`DISABLED_PAYMENT_METHODS: ${problem}`);
  const seconds = (name: string, fallback: number, max: number) => read.integer(name, fallback, { min: 0, max }) * 1000;
  return {
    fragment: {
      baseUrl: shared.fragmentBaseUrl,
      cookies,
      timeoutMs: read.integer('FRAGMENT_READ_TIMEOUT_MS', 5_000, { min: 100, max: 60_000 }),
      tries: read.integer('FRAGMENT_READ_TRIES', 2, { min: 1, max: 5 }),
    },
    redisPrefix: shared.readsRedisPrefix,
    disabledPaymentMethods: disabled.disabled,
    availability: {
      positiveTtlMs: seconds('AVAILABILITY_CACHE_TTL_SECONDS', 30, 3_600),
      negativeTtlMs: seconds('AVAILABILITY_NEGATIVE_CACHE_TTL_SECONDS', 60, 3_600),
      deadlineMs: read.integer('AVAILABILITY_DEADLINE_MS', 8_000, { min: 100, max: 60_000 }),
    },
    limits: {
      globalPerMinute: read.integer('FRAGMENT_READS_PER_MINUTE', 60, { min: 1, max: 100_000 }),
      perUsernamePerMinute: read.integer('AVAILABILITY_LOOKUPS_PER_USERNAME_PER_MINUTE', 6, { min: 1, max: 10_000 }),
      cooldownMs: seconds('FRAGMENT_RATE_LIMIT_COOLDOWN_SECONDS', 5, 3_600),
    },
    prices: {
      quoteTtlMs: seconds('PRICES_QUOTE_TTL_SECONDS', 30, 3_600),
      staleAfterMs: seconds('PRICES_STALE_AFTER_SECONDS', 300, 86_400),
      keepLastKnownMs: seconds('PRICES_KEEP_LAST_KNOWN_SECONDS', 86_400, 30 * 86_400),
      failureBackoffMs: seconds('PRICES_FAILURE_BACKOFF_SECONDS', 5, 3_600),
      deadlineMs: read.integer('PRICES_DEADLINE_MS', 5_000, { min: 100, max: 60_000 }),
    },
    memoryTtlMs: read.integer('READS_MEMORY_CACHE_MS', 1_000, { min: 0, max: 10_000 }),
  };
}
