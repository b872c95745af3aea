import { Counter, type Registry } from 'prom-client';
import type { TokenBucketObserver } from './shared-token-bucket';

/** How the chain provider's shared rate limit held calls back, and how often the provider still said 429. */
export interface ChainRateMetrics {
  waits: Counter<'provider'>;
  waitSeconds: Counter<'provider'>;
  rateLimited: Counter<'provider'>;
}

export function createChainRateMetrics(registry: Registry): ChainRateMetrics {
  const registers = [registry];
  return {
    waits: new Counter({
      name: 'starsgate_chain_rate_limit_waits_total',
      help: 'Chain provider calls that waited for a token of the shared rate limit (TONCENTER_RPS)',
      labelNames: ['provider'],
      registers,
    }),
    waitSeconds: new Counter({
      name: 'starsgate_chain_rate_limit_wait_seconds_total',
      help: 'Time chain provider calls spent waiting for a token of the shared rate limit',
      labelNames: ['provider'],
      registers,
    }),
    rateLimited: new Counter({
      name: 'starsgate_chain_rate_limited_total',
      help: 'HTTP 429 answers received from the chain provider (each pauses every replica)',
      labelNames: ['provider'],
      registers,
    }),
  };
}

export function chainRateObserver(metrics: ChainRateMetrics, provider: string): TokenBucketObserver {
  return {
    waited: (ms) => {
      metrics.waits.inc({ provider });
      metrics.waitSeconds.inc({ provider }, ms / 1000);
    },
    rateLimited: () => metrics.rateLimited.inc({ provider }),
  };
}
