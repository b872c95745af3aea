import { FragmentClient, FragmentSessionPool } from '@starsgate/fragment';
import { ToncenterChainClient, type ChainClient } from '@starsgate/ton';
import { instrumentUpstream, type Logger } from '@starsgate/platform';
import type { WorkerConfig } from './config';
import type { UpstreamHealth } from './observability/upstream-health';
import type { WorkerMetrics } from './observability/worker-metrics';

export interface Upstreams {
  chain: ChainClient;
  /** One client per configured Fragment login session. */
  fragment: FragmentSessionPool;
}

/**
 * The chain provider and the Fragment login sessions the worker pays through. Cookies never reach
 * a log. With `observability`, every call is timed and counted, and each session's health tracked.
 */
export function createUpstreams(
  config: WorkerConfig,
  logger: Logger,
  observability?: { metrics: WorkerMetrics; health: UpstreamHealth },
): Upstreams {
  const rawChain = new ToncenterChainClient({
    baseUrl: config.toncenterUrl,
    ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
  });
  const sessions = (config.fragmentCookies.length > 0 ? config.fragmentCookies : ['']).map(
    (cookies) =>
      new FragmentClient({
        baseUrl: config.fragmentBaseUrl,
        cookies,
        timeoutMs: config.fragmentTimeoutMs,
        logger: {
          debug: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          info: (message: string) => logger.debug(message, { upstream: 'fragment' }),
          warn: (message: string) => logger.warn(message, { upstream: 'fragment' }),
        },
      }),
  );
  if (!observability) return { chain: rawChain, fragment: new FragmentSessionPool(sessions) };
  const { metrics, health } = observability;
  return {
    chain: instrumentUpstream<ChainClient>(rawChain, 'chain', metrics.upstream, { observe: health.chainObserver }),
    fragment: new FragmentSessionPool(
      sessions.map((client, index) =>
        instrumentUpstream(client, 'fragment', metrics.upstream, {
          observe: health.fragmentObserver(index),
          scopes: ['exclusive'],
        }),
      ),
    ),
  };
}
