import { FragmentClient } from '@starsgate/fragment';
import { ToncenterChainClient, type ChainClient } from '@starsgate/ton';
import type { Logger } from '@starsgate/platform';
import type { WorkerConfig } from './config';

export interface Upstreams {
  chain: ChainClient;
  fragment: FragmentClient;
}

/** The chain provider and the Fragment login the worker pays through. Cookies never reach a log. */
export function createUpstreams(config: WorkerConfig, logger: Logger): Upstreams {
  const chain = new ToncenterChainClient({
    baseUrl: config.toncenterUrl,
    ...(config.toncenterApiKey ? { apiKey: config.toncenterApiKey } : {}),
  });
  const fragment = new FragmentClient({
    baseUrl: config.fragmentBaseUrl,
    cookies: config.fragmentCookies,
    timeoutMs: config.fragmentTimeoutMs,
    logger: {
      debug: (message: string) => logger.debug(message, { upstream: 'fragment' }),
      info: (message: string) => logger.debug(message, { upstream: 'fragment' }),
      warn: (message: string) => logger.warn(message, { upstream: 'fragment' }),
    },
  });
  return { chain, fragment };
}
