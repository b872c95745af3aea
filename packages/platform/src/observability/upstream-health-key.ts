/**
 * Each worker publishes what it knows of its upstreams (Fragment sessions, chain provider) under
 * its own key with a short TTL; the gateway's admin API reads them all. A stopped worker's entry
 * expires by itself.
 */
export const UPSTREAM_HEALTH_TTL_MS = 30_000;

export function upstreamHealthKey(bullPrefix: string, workerId: string): string {
  return `${bullPrefix}:starsgate:upstream-health:${workerId}`;
}

export function upstreamHealthPattern(bullPrefix: string): string {
  return `${bullPrefix}:starsgate:upstream-health:*`;
}
