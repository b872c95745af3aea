import { FragmentClient, FragmentSessionPool, proxyForLogin } from '@starsgate/fragment';
import { backgroundPacer, ToncenterChainClient, type ChainClient, type RequestPacer } from '@starsgate/ton';
import { createRedisConnection, createToncenterPacer, instrumentUpstream, type Logger } from '@starsgate/platform';
import type { WorkerConfig } from './config';
import type { UpstreamHealth } from './observability/upstream-health';
import type { WorkerMetrics } from './observability/worker-metrics';

export interface Upstreams {
  chain: ChainClient;
  /**
   * The same provider and shared rate for the checkout watch, whose turns are background ones:
   * purchases' reads go first (docs/security.md, attack 17).
   */
  watchChain: ChainClient;
  /** One client per configured Fragment login session. */
  fragment: FragmentSessionPool;
  /** Closes the Redis connection of the chain provider's shared rate limit. */
  close(): Promise<void>;
}

/**
 * The chain provider and the Fragment login sessions the worker pays through. Cookies never reach
 * a log. Chain calls share toncenter's rate limit with every other replica through Redis
 * (docs/ton.md §9). With `observability`, every call is timed and counted, and each session's
 * health tracked.
 */
export function createUpstreams(
  config: WorkerConfig,
  logger: Logger,
  observability?: { metrics: WorkerMetrics; health: UpstreamHealth },
): Upstreams {
  const pacingRedis = config.toncenterRps > 0 ? createRedisConnection(config.redisUrl) : undefined;
  const pacer = pacingRedis
    ? createToncenterPacer(
        { url: config.toncenterUrl, apiKey: config.toncenterApiKey, rps: config.toncenterRps },
        pacingRedis,
        observability?.metrics.chainRate,
      )
    : undefined;
  const close = async (): Promise<void> => {
    if (pacingRedis) await pacingRedis.quit().catch(() => pacingRedis.disconnect());
  };
  const toncenter = (paced: RequestPacer | undefined) =>
    new ToncenterChainClient({
      baseUrl: config.toncenterUrl,
      ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
      ...(paced ? { pacer: paced } : {}),
    });
  const rawChain = toncenter(pacer);
  const rawWatchChain = toncenter(pacer ? backgroundPacer(pacer) : undefined);
  const sessions = (config.fragmentCookies.length > 0 ? config.fragmentCookies : ['']).map(
    (cookies, index) =>
      new FragmentClient({
        baseUrl: config.fragmentBaseUrl,
        cookies,
        proxyUrl: proxyForLogin(config.fragmentProxyUrls, index),
        timeoutMs: config.fragmentTimeoutMs,
        logger: {
          debug: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          info: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          warn: (message: string) => logger.warn(message, { upstream: 'fragment' }),
        },
      }),
  );
  if (!observability)
    return { chain: rawChain, watchChain: rawWatchChain, fragment: new FragmentSessionPool(sessions), close };
  const { metrics, health } = observability;
  return {
    chain: instrumentUpstream<ChainClient>(rawChain, 'chain', metrics.upstream, { observe: health.chainObserver }),
    // Counted, but not in the chain's health figures: its calls include waits for spare turns.
    watchChain: instrumentUpstream<ChainClient>(rawWatchChain, 'chain', metrics.upstream),
    fragment: new FragmentSessionPool(
      sessions.map((client, index) =>
        instrumentUpstream(client, 'fragment', metrics.upstream, {
          observe: health.fragmentObserver(index),
          scopes: ['exclusive'],
        }),
      ),
    ),
    close,
  };
}
