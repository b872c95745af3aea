import type { AdminClient } from '../admin-client';
import { table } from '../output';
import type { CommandResult } from './command';

interface Stats {
  counts: Record<string, number>;
  oldest_age_seconds: Record<string, number>;
  reconciliation: { open: number; oldest_age_seconds: number | null };
  last_hour: { completed: number; failed: number };
  queues: Record<string, Record<string, number>>;
}

export async function showStats(client: AdminClient): Promise<CommandResult> {
  const stats = await client.call<Stats>('GET', '/admin/api/stats');
  const statuses = Object.entries(stats.counts).map(([status, count]) => ({
    status,
    count,
    oldest_age_s: stats.oldest_age_seconds[status],
  }));
  const queues = Object.entries(stats.queues).map(([queue, counts]) => ({ queue, ...counts }));
  const text = [
    table(statuses, ['status', 'count', 'oldest_age_s']),
    '',
    `reconciliation: ${stats.reconciliation.open} open, oldest ${stats.reconciliation.oldest_age_seconds ?? '-'} s`,
    `last hour: ${stats.last_hour.completed} completed, ${stats.last_hour.failed} failed`,
    '',
    table(queues, ['queue', 'waiting', 'active', 'delayed', 'failed']),
  ].join('\n');
  return { json: stats, text };
}
