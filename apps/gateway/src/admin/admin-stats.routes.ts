import { Router } from 'express';
import type { Queue } from 'bullmq';
import { PURCHASE_STATUSES, TERMINAL_STATUSES } from '@starsgate/domain';
import type { AdminPurchaseReads, UpstreamFormatErrorRepository } from '@starsgate/db';

const ageSeconds = (since: Date, now: number): number => Math.max(0, Math.round((now - since.getTime()) / 100) / 10);

/** `/admin/api/stats`: the pipeline at a glance, for people, the dashboard and the CLI. */
export function adminStatsRoutes(deps: {
  reads: AdminPurchaseReads;
  upstreamFormatErrors: UpstreamFormatErrorRepository;
  queues: readonly Queue[];
}): Router {
  const router = Router();
  router.get('/admin/api/stats', async (_req, res) => {
    const now = Date.now();
    const [stats, formatErrors, queueCounts] = await Promise.all([
      deps.reads.stats(),
      deps.upstreamFormatErrors.list(),
      Promise.all(
        deps.queues.map(async (queue) => {
          const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'failed');
          return {
            waiting: counts.waiting ?? 0,
            active: counts.active ?? 0,
            delayed: counts.delayed ?? 0,
            failed: counts.failed ?? 0,
          };
        }),
      ),
    ]);
    const byStatus = new Map(stats.byStatus.map((entry) => [entry.status, entry]));
    const counts = Object.fromEntries(PURCHASE_STATUSES.map((status) => [status, byStatus.get(status)?.count ?? 0]));
    const oldest: Record<string, number> = {};
    for (const status of PURCHASE_STATUSES) {
      const since = byStatus.get(status)?.oldestSince;
      if (since && !TERMINAL_STATUSES.includes(status)) oldest[status] = ageSeconds(since, now);
    }
    const reconciliation = byStatus.get('reconciliation_required');
    res.json({
      counts,
      oldest_age_seconds: oldest,
      reconciliation: {
        open: reconciliation?.count ?? 0,
        oldest_age_seconds: reconciliation?.oldestSince ? ageSeconds(reconciliation.oldestSince, now) : null,
      },
      last_hour: stats.lastHour,
      queues: Object.fromEntries(deps.queues.map((queue, index) => [queue.name, queueCounts[index]])),
      upstream_format_errors: formatErrors.map((entry) => ({
        source: entry.source,
        session_id: entry.sessionId,
        problem: entry.problem,
        occurrences: entry.occurrences,
        first_seen_at: entry.firstSeenAt.toISOString(),
        last_seen_at: entry.lastSeenAt.toISOString(),
      })),
    });
  });
  return router;
}
