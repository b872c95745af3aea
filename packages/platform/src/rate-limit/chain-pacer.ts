import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { SharedConfig } from '../config/shared-config';
import { chainRateObserver, type ChainRateMetrics } from './chain-rate-metrics';
import { SharedTokenBucket } from './shared-token-bucket';

const KEY_PREFIX = 'starsgate:rate:';

/**
 * The Redis key of a provider's rate limit: the same for every replica (and every deployment)
 * that calls the same API root with the same key, since the provider counts per key. The API key
 * itself never reaches Redis, only a hash of it.
 */
export function chainRateLimitKey(provider: string, url: string, apiKey: string | undefined): string {
  const digest = createHash('sha256')
    .update(`${new URL(url).origin}\n${apiKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return `${KEY_PREFIX}${provider}:${digest}`;
}

/**
 * The toncenter client's pacer: one token bucket per provider and key, sized by TONCENTER_RPS.
 * `rps: 0` (a self-hosted provider with no limit) paces nothing.
 */
export function createToncenterPacer(
  toncenter: SharedConfig['toncenter'],
  redis: Redis,
  metrics?: ChainRateMetrics,
): SharedTokenBucket | undefined {
  if (toncenter.rps === 0) return undefined;
  return new SharedTokenBucket({
    redis,
    key: chainRateLimitKey('toncenter', toncenter.url, toncenter.apiKey),
    ratePerSecond: toncenter.rps,
    ...(metrics ? { observer: chainRateObserver(metrics, 'toncenter') } : {}),
  });
}
