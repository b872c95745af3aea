/**
 * Keeps the reference price list warm in Redis so the gateway's GET /api/v1/prices (and the
 * quotes at the reference quantities) are cache hits. One refresh per interval across all worker replicas:
 * the refresh is single-flighted through a Redis lock, and a replica that finds the list younger
 * than half an interval skips its turn.
 *
 * A failed refresh keeps the last known list (the gateway flags it `stale` once it is older than
 * PRICES_STALE_AFTER_SECONDS) and is retried on the next tick. Cookies are never logged.
 */
import type { Redis } from 'ioredis';
import {
  createFragmentReads,
  type FragmentClient,
  type FragmentReads,
  type StoredPriceList,
} from '@starsgate/fragment';
import {
  boolean,
  finishConfig,
  integer,
  readEnvironment,
  sharedConfig,
  SHARED_VARIABLES,
  type EnvironmentValues,
  type Logger,
  type SharedConfig,
} from '@starsgate/platform';

export interface PriceRefresherConfig {
  intervalMs: number;
  /** Must equal the gateway's READS_REDIS_PREFIX. */
  redisPrefix: string;
  enabled: boolean;
}

/** The refresher's own variables, part of the worker's; the Fragment login is the worker's (FRAGMENT_BASE_URL, FRAGMENT_COOKIES). */
export const PRICE_REFRESHER_VARIABLES = {
  PRICES_REFRESH_INTERVAL_SECONDS: integer({
    default: 60,
    minimum: 1,
    maximum: 86_400,
    description:
      "Refresh period of the reference price list (each product's reference quantities) the worker keeps warm.",
  }),
  PRICES_REFRESH_ENABLED: boolean({ default: true, description: 'Switches the price list refresher on or off.' }),
} as const;

export function priceRefresherConfig(
  values: EnvironmentValues<typeof PRICE_REFRESHER_VARIABLES>,
  shared: Pick<SharedConfig, 'readsRedisPrefix'>,
): PriceRefresherConfig {
  return {
    intervalMs: values.PRICES_REFRESH_INTERVAL_SECONDS * 1000,
    redisPrefix: shared.readsRedisPrefix,
    enabled: values.PRICES_REFRESH_ENABLED,
  };
}

const REFRESHER_ALONE_VARIABLES = { ...SHARED_VARIABLES, ...PRICE_REFRESHER_VARIABLES } as const;

/** The refresher's configuration on its own (its tests). */
export function loadPriceRefresherConfig(env: NodeJS.ProcessEnv = process.env): PriceRefresherConfig {
  const { values, problems } = readEnvironment(REFRESHER_ALONE_VARIABLES, env);
  finishConfig(problems);
  return priceRefresherConfig(values, sharedConfig(values));
}

export interface PriceRefresherOptions {
  redis: Redis;
  logger: Pick<Logger, 'info' | 'warn' | 'debug'>;
  intervalMs: number;
  redisPrefix: string;
  /** The worker's Fragment client (share the purchase flow's, so its mutex covers both), or how to build one. */
  fragment: FragmentClient | { baseUrl: string; cookies: string; timeoutMs?: number };
}

export interface PriceRefresher {
  /** Resolves after the current refresh (if any) finished. */
  stop(): Promise<void>;
  /** Runs one refresh now (tests, admin). Resolves to the stored list, or undefined if skipped/failed. */
  refreshNow(): Promise<StoredPriceList | undefined>;
  readonly reads: FragmentReads;
}

export function startPriceRefresher(options: PriceRefresherOptions): PriceRefresher {
  const reads = createFragmentReads({
    fragment: options.fragment,
    redis: options.redis,
    prefix: options.redisPrefix,
    logger: options.logger,
  });
  let running: Promise<StoredPriceList | undefined> | undefined;
  let stopped = false;

  const refresh = async (force: boolean): Promise<StoredPriceList | undefined> => {
    try {
      if (!force) {
        // Another replica refreshed recently: skip this turn.
        const stored = await options.redis.get(`${options.redisPrefix}prices:list`);
        const fetchedAt = stored ? (JSON.parse(stored) as { fetchedAt?: number }).fetchedAt : undefined;
        if (fetchedAt !== undefined && Date.now() - fetchedAt < options.intervalMs / 2) return undefined;
      }
      const list = await reads.prices.refreshList();
      options.logger.debug('prices refreshed', { updated_at: new Date(list.fetchedAt).toISOString() });
      return list;
    } catch (error) {
      options.logger.warn('price refresh failed; the last known prices stay in place', {
        reason: (error as { reason?: string }).reason ?? (error instanceof Error ? error.name : 'error'),
      });
      return undefined;
    }
  };

  const tick = (force: boolean): Promise<StoredPriceList | undefined> => {
    if (!running) running = refresh(force).finally(() => (running = undefined));
    return running;
  };

  void tick(true);
  const timer = setInterval(() => {
    if (!stopped) void tick(false);
  }, options.intervalMs);
  timer.unref();

  return {
    reads,
    refreshNow: () => tick(true),
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
