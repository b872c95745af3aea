import { count, fixed, percentile, table } from './format';
import type { MinuteRecord, ReportedProcess } from './minute-record';

/** The block printed after each minute. */
export function formatMinute(record: MinuteRecord, processes: ReportedProcess[], totalMinutes: number): string {
  const { driver, calls } = record;
  const finished = driver.finished;
  const byStatus = new Map<string, number>();
  for (const order of finished) byStatus.set(order.status, (byStatus.get(order.status) ?? 0) + 1);
  const outcomes = [...byStatus].map(([status, n]) => `${status} ${n}`).join(', ') || 'none';
  const e2e = finished.map((order) => order.elapsedMs / 1000);
  const requests = [...calls.byKind.values()].reduce((sum, n) => sum + n, 0);
  const refusals = [...calls.refusals].map(([key, n]) => `${key} ×${n}`).join(', ') || 'none';
  const title =
    record.phase === 'load'
      ? `minute ${record.minute}/${totalMinutes}`
      : `minute ${record.minute} (drain, no new orders, ${Math.round(record.seconds)} s)`;
  const rows = [
    ['process', 'rss MB', 'heap MB', 'cpu %', 'delay p50 ms', 'p99 ms', 'max ms'],
    ...processes.map(({ name }) => {
      const sample = record.processes[name]!;
      return [
        name,
        fixed(sample.rssMb),
        fixed(sample.heapUsedMb),
        fixed(sample.cpuPercent, 0),
        fixed(sample.delay?.p50, 2),
        fixed(sample.delay?.p99, 1),
        fixed(sample.delay?.max, 1),
      ];
    }),
    [
      'idle node (ref.)',
      '—',
      '—',
      '—',
      fixed(record.reference.p50, 2),
      fixed(record.reference.p99, 1),
      fixed(record.reference.max, 1),
    ],
    ['redis-server', fixed(record.redisServer.rssMb), '—', fixed(record.redisServer.cpuPercent, 0), '—', '—', '—'],
  ];
  const postgres =
    Object.entries(record.postgres)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([application, c]) => `${application} ${c.total} (${c.busy} busy)`)
      .join(', ') || 'none';
  return [
    `── ${title} · ${new Date().toISOString().slice(11, 19)} UTC · load average ${record.loadAverage.map((n) => n.toFixed(2)).join(' ')}`,
    `orders +${driver.purchasesCreated + driver.checkoutsCreated} (purchases ${driver.purchasesCreated}, checkouts ${driver.checkoutsCreated}) · ` +
      `final ${finished.length} (${outcomes}) · open ${record.backlog.open} (of them queued ${record.backlog.byStatus['queued'] ?? 0}; database) · ` +
      `accept→final p50 ${fixed(percentile(e2e, 50))} s, p99 ${fixed(percentile(e2e, 99))} s`,
    `requests ${count(requests)} (${fixed(requests / record.seconds)}/s) · latency p50 ${fixed(percentile(calls.latencies, 50))} ms, ` +
      `p99 ${fixed(percentile(calls.latencies, 99))} ms · errors ${calls.errors} · expected refusals: ${refusals} · ` +
      `webhook posts received ${record.webhookDeliveries}`,
    table(rows),
    `postgres connections to the run's database: ${postgres}`,
    `redis: used_memory ${fixed(record.redis.usedMemoryMb, 2)} MB · keys ${count(record.redis.keys)}`,
  ].join('\n');
}
