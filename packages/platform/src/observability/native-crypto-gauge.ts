import { Gauge, type Registry } from 'prom-client';

/**
 * `starsgate_ton_native_crypto`: the start-up self-check of TON cell hashing on node:crypto
 * (`nativeCellHashing` from @starsgate/ton, passed in: the platform does not depend on the chain
 * code), run once. 0 means the build-time patch did not apply: the service is right, only slower.
 */
export function registerNativeCryptoGauge(registry: Registry, selfCheck: () => boolean): Gauge {
  const gauge = new Gauge({
    name: 'starsgate_ton_native_crypto',
    help: 'TON cell hashing on node:crypto (the build-time patch of @ton/crypto, checked at start): 1 yes, 0 no (jssha, slower)',
    registers: [registry],
  });
  gauge.set(selfCheck() ? 1 : 0);
  return gauge;
}
