import type { Redis } from 'ioredis';
import { UPSTREAM_HEALTH_TTL_MS, upstreamHealthKey, type Logger } from '@starsgate/platform';
import type { UpstreamHealth } from './upstream-health';

/** Writes this worker's upstream health under its own expiring key every few seconds. */
export function publishUpstreamHealth(options: {
  redis: Redis;
  bullPrefix: string;
  workerId: string;
  health: UpstreamHealth;
  logger: Logger;
  intervalMs?: number;
}): { stop(): Promise<void> } {
  const key = upstreamHealthKey(options.bullPrefix, options.workerId);
  const publish = async (): Promise<void> => {
    const body = { worker: options.workerId, at: new Date().toISOString(), ...options.health.snapshot() };
    await options.redis.set(key, JSON.stringify(body), 'PX', UPSTREAM_HEALTH_TTL_MS);
  };
  const tick = (): void => {
    publish().catch((error: unknown) => options.logger.debug('upstream health not published', { error }));
  };
  tick();
  const timer = setInterval(tick, options.intervalMs ?? 5_000);
  timer.unref();
  return {
    stop: async () => {
      clearInterval(timer);
      await options.redis.del(key).catch(() => 0);
    },
  };
}
