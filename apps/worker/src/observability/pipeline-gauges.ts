import type { Queue } from 'bullmq';
import type { PipelineReads } from '@starsgate/db';
import type { WorkerMetrics } from './worker-metrics';

const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed'] as const;
const REFRESH_MS = 1_000;

/**
 * The gauges read at scrape time from PostgreSQL and Redis: open purchases per status and the
 * longest wait in each, reconciliation cases, held wallet leases, undelivered webhooks, queue
 * jobs. Every worker replica reports the same values; dashboards and alerts take max().
 * Concurrent scrapes within a second share one read.
 */
export function pipelineGauges(
  metrics: WorkerMetrics,
  sources: { pipeline: PipelineReads; queues: readonly Queue[]; now?: () => number },
): () => Promise<void> {
  const now = sources.now ?? Date.now;
  let last: { at: number; done: Promise<void> } | undefined;

  const read = async (): Promise<void> => {
    const [open, wallets, webhooks, queueCounts] = await Promise.all([
      sources.pipeline.openStatuses(),
      sources.pipeline.walletsInFlight(),
      sources.pipeline.undeliveredWebhooks(),
      Promise.all(sources.queues.map((queue) => queue.getJobCounts(...QUEUE_STATES))),
    ]);
    const at = now();
    metrics.openPurchases.reset();
    metrics.oldestOpenAge.reset();
    for (const entry of open) {
      metrics.openPurchases.set({ status: entry.status }, entry.count);
      const age = entry.oldestSince ? Math.max(0, (at - entry.oldestSince.getTime()) / 1000) : 0;
      metrics.oldestOpenAge.set({ status: entry.status }, age);
    }
    const reconciliation = open.find((entry) => entry.status === 'reconciliation_required');
    metrics.reconciliationOpen.set(reconciliation?.count ?? 0);
    metrics.reconciliationOldestAge.set(
      reconciliation?.oldestSince ? Math.max(0, (at - reconciliation.oldestSince.getTime()) / 1000) : 0,
    );
    metrics.walletLeasesHeld.set(wallets.length);
    metrics.webhookDeliveriesUndelivered.set({ state: 'pending' }, webhooks.pending);
    metrics.webhookDeliveriesUndelivered.set({ state: 'failed' }, webhooks.failed);
    sources.queues.forEach((queue, index) => {
      for (const state of QUEUE_STATES)
        metrics.queueJobs.set({ queue: queue.name, state }, queueCounts[index]![state] ?? 0);
    });
  };

  return () => {
    if (!last || now() - last.at >= REFRESH_MS) last = { at: now(), done: read() };
    return last.done;
  };
}
