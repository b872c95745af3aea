import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { PipelineReads } from '@starsgate/db';
import { upstreamHealthPattern } from '@starsgate/platform';

const ageSeconds = (since: Date | null, now: number): number | null =>
  since ? Math.max(0, Math.round((now - since.getTime()) / 100) / 10) : null;

/** Every worker's latest upstream snapshot (each expires by itself when its worker stops). */
async function upstreamSnapshots(redis: Redis, pattern: string): Promise<unknown[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 200);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0' && keys.length < 1_000);
  if (keys.length === 0) return [];
  const values = await redis.mget(...keys);
  return values.flatMap((value) => {
    if (value === null) return [];
    try {
      return [JSON.parse(value) as unknown];
    } catch {
      return [];
    }
  });
}

/**
 * `/admin/api/pipeline`: what is moving right now, for the dashboard: each open status with its
 * longest-waiting purchase, completions and failures per minute over the last hour, wallets with
 * a transaction in flight, and each worker's view of its upstreams (Fragment sessions, chain).
 */
export function adminPipelineRoutes(deps: { pipeline: PipelineReads; redis: Redis; bullPrefix: string }): Router {
  const router = Router();
  router.get('/admin/api/pipeline', async (_req, res) => {
    const [open, throughput, wallets, workers] = await Promise.all([
      deps.pipeline.openStatuses(),
      deps.pipeline.throughput(60),
      deps.pipeline.walletsInFlight(),
      upstreamSnapshots(deps.redis, upstreamHealthPattern(deps.bullPrefix)),
    ]);
    const now = Date.now();
    res.json({
      open: open.map((entry) => ({
        status: entry.status,
        count: entry.count,
        oldest_purchase_id: entry.oldestId,
        oldest_age_seconds: ageSeconds(entry.oldestSince, now),
      })),
      throughput: throughput.map((minute) => ({
        minute: minute.minute.toISOString(),
        completed: minute.completed,
        failed: minute.failed,
      })),
      wallets_in_flight: wallets.map((wallet) => ({
        wallet_address: wallet.walletAddress,
        purchases: wallet.purchases,
        lease_expires_at: wallet.leaseExpiresAt.toISOString(),
      })),
      workers,
    });
  });
  return router;
}
