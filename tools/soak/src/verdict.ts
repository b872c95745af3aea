/**
 * The end of a run: slopes of memory and event-loop delay per process by least squares over the
 * load minutes after the warm-up, and whether they are flat. Why these thresholds: docs/reports/soak.md.
 */
import { fixed, signed, table } from './format';
import type { MinuteRecord, ReportedProcess } from './minute-record';
import { leastSquares, type Fit } from './slope';

export const FLAT = {
  /** MB per minute. */
  rss: 1,
  heap: 0.5,
  /** ms per minute, of the minute's p99 event-loop delay. */
  delayP99: 0.5,
};
/** Fewer judged minutes than this cannot tell a leak from warm-up and GC noise. */
export const MIN_JUDGED_MINUTES = 10;
/** Backlog growth, as a share of the arrivals per minute, that means the service falls behind. */
export const BACKLOG_GROWTH_SHARE = 0.1;

export interface Verdict {
  lines: string[];
  /** Failures of the slope and backlog checks (empty: passed or not judged). */
  failures: string[];
}

/** Above the threshold, and more than two standard errors above zero (not GC or scheduling noise). */
const rising = (fit: Fit | null, threshold: number): boolean =>
  fit !== null && fit.slope > threshold && fit.slope > 2 * fit.standardError;

const fitText = (fit: Fit | null, digits = 2) =>
  fit ? `${signed(fit.slope, digits)} ±${fixed(fit.standardError, digits)}` : '—';

export function judge(
  records: MinuteRecord[],
  processes: ReportedProcess[],
  warmupMinutes: number,
  rate: number,
): Verdict {
  const judged = records.filter((record) => record.phase === 'load' && record.minute > warmupMinutes);
  const enough = judged.length >= MIN_JUDGED_MINUTES;
  const failures: string[] = [];
  const lines: string[] = [];
  const fit = (value: (record: MinuteRecord) => number | null | undefined) =>
    leastSquares(judged.map((record) => ({ x: record.minute, y: value(record) ?? Number.NaN })));

  const window = judged.length > 0 ? `minutes ${judged[0]!.minute}–${judged[judged.length - 1]!.minute}` : 'no minutes';
  lines.push(
    `Slopes by least squares over ${window} (${judged.length} one-minute samples after a ${warmupMinutes}-minute warm-up); ` +
      `growing = above rss ${FLAT.rss} MB/min, heap ${FLAT.heap} MB/min or p99 delay beyond an idle Node.js process's ` +
      `${FLAT.delayP99} ms/min, and over two ` +
      'standard errors (±) above zero; flat otherwise.',
  );
  const rows = [
    ['process', 'rss MB/min', 'heap MB/min', 'delay p50 ms/min', 'delay p99 ms/min', 'p99 − idle ms/min', 'verdict'],
  ];
  for (const { name, kind } of processes) {
    const rss = fit((r) => r.processes[name]?.rssMb);
    const heap = fit((r) => r.processes[name]?.heapUsedMb);
    const p50 = fit((r) => r.processes[name]?.delay?.p50);
    const p99 = fit((r) => r.processes[name]?.delay?.p99);
    const excess = fit((r) => {
      const own = r.processes[name]?.delay?.p99;
      return own === undefined ? undefined : own - r.reference.p99;
    });
    let verdict: string;
    if (kind === 'sandbox') verdict = 'not judged (upstream stand-in, see below)';
    else if (!enough) verdict = `not judged (${judged.length} < ${MIN_JUDGED_MINUTES} minutes)`;
    else {
      const over = [
        rising(rss, FLAT.rss) ? 'rss' : null,
        rising(heap, FLAT.heap) ? 'heap' : null,
        rising(excess, FLAT.delayP99) ? 'delay' : null,
      ].filter((item): item is string => item !== null);
      verdict = over.length === 0 ? 'flat' : `GROWING (${over.join(', ')})`;
      if (over.length > 0) failures.push(`${name}: ${over.join(', ')} not flat`);
    }
    rows.push([name, fitText(rss), fitText(heap), fitText(p50, 3), fitText(p99, 3), fitText(excess, 3), verdict]);
  }
  lines.push(table(rows));
  if (!enough)
    lines.push(
      `Too short to judge a leak: ${judged.length} minute(s) after the warm-up, ${MIN_JUDGED_MINUTES} needed. ` +
        'The slopes above are printed, not judged; run --minutes 30 for a verdict.',
    );
  lines.push(
    'The sandbox keeps the whole local chain (every block, account and transaction) and every Fragment order in memory, ' +
      'as a chain and a marketplace do: its memory grows with traffic by design and is not a service leak.',
  );

  const redisUsed = fit((r) => r.redis.usedMemoryMb);
  const redisKeys = fit((r) => r.redis.keys);
  lines.push(
    `redis: used_memory ${fitText(redisUsed)} MB/min, keys ${fitText(redisKeys, 1)}/min — BullMQ keeps each completed ` +
      'purchase job for an hour (at most 10,000) and each failed one for a day, so Redis grows through the first hour of ' +
      'a run by design, then levels off.',
  );

  const arrivalsPerMinute = rate * 60;
  const backlog = fit((r) => r.backlog.open);
  const load = records.filter((record) => record.phase === 'load');
  const lastOpen = load[load.length - 1]?.backlog.open ?? 0;
  if (judged.length >= 5 && backlog) {
    const growing = backlog.slope > BACKLOG_GROWTH_SHARE * arrivalsPerMinute;
    lines.push(
      `backlog (open orders): ${fitText(backlog, 1)} per minute against ${fixed(arrivalsPerMinute, 0)} arrivals per minute → ` +
        (growing ? `GROWING (over ${BACKLOG_GROWTH_SHARE * 100} % of arrivals)` : 'steady'),
    );
    if (growing) failures.push(`backlog grows by ${fixed(backlog.slope)} orders per minute`);
  } else {
    const behind = lastOpen > 3 * arrivalsPerMinute;
    lines.push(
      `backlog (open orders): ${lastOpen} at the end of the load, ${fixed(arrivalsPerMinute, 0)} arrivals per minute → ` +
        (behind ? 'FALLING BEHIND (over 3 minutes of arrivals open)' : 'keeping up (too few minutes for a slope)'),
    );
    if (behind) failures.push(`backlog of ${lastOpen} open orders after the load`);
  }
  return { lines, failures };
}
