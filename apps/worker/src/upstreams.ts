import { FragmentClient, FragmentSessionPool } from '@starsgate/fragment';
import { ToncenterChainClient, type ChainClient } from '@starsgate/ton';
import type { Logger } from '@starsgate/platform';
import type { WorkerConfig } from './config';

export interface Upstreams {
  chain: ChainClient;
  /** One client per configured Fragment login session. */
  fragment: FragmentSessionPool;
}

/** The chain provider and the Fragment login sessions the worker pays through. Cookies never reach a log. */
export function createUpstreams(config: WorkerConfig, logger: Logger): Upstreams {
  const chain = new ToncenterChainClient({
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
  return { chain, fragment: new FragmentSessionPool(sessions) };
}
