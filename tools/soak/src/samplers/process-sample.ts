import { readFile } from 'node:fs/promises';

/** One process over one minute: memory at the end of it, event-loop delay and CPU during it. */
export interface ProcessSample {
  rssMb: number;
  /** V8 heap in use (`nodejs_heap_size_used_bytes`); null for a process without /metrics. */
  heapUsedMb: number | null;
  /** Event-loop delay during the minute, ms, the monitor's 10 ms timer interval taken off. */
  delay: { p50: number; p99: number; max: number } | null;
  /** Share of one core used during the minute, %. */
  cpuPercent: number;
}

/** prom-client samples the event loop with a 10 ms timer; its histogram holds the time between ticks. */
const MONITOR_RESOLUTION_MS = 10;
const CLOCK_TICKS_PER_SECOND = 100;

/** Single-value series of a Prometheus text exposition (no labels), by name. */
export function parsePrometheusValues(text: string): Map<string, number> {
  const values = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || line.length === 0) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*) ([^ ]+)/.exec(line);
    if (match) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

async function procStatusRssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status);
  return kb ? Number(kb[1]) / 1024 : Number.NaN;
}

/** utime + stime of the process, seconds (/proc/<pid>/stat fields 14 and 15). */
async function procCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

const delayMs = (seconds: number | undefined) =>
  seconds === undefined || !Number.isFinite(seconds) ? Number.NaN : Math.max(0, seconds * 1000 - MONITOR_RESOLUTION_MS);

/**
 * Samples one process once a minute. Scraping its /metrics resets prom-client's event-loop
 * histogram, so each sample's delay covers exactly the time since the previous one: nothing else
 * may scrape these processes during a run.
 */
export class ProcessSampler {
  private lastCpu: { seconds: number; at: number } | null = null;

  constructor(
    readonly pid: number,
    private readonly metricsUrl: string | null,
  ) {}

  async sample(): Promise<ProcessSample> {
    const [rssMb, cpuSeconds, metrics] = await Promise.all([
      procStatusRssMb(this.pid),
      procCpuSeconds(this.pid),
      this.metricsUrl ? this.scrape(this.metricsUrl) : Promise.resolve(null),
    ]);
    const now = performance.now();
    const cpuPercent = this.lastCpu
      ? ((cpuSeconds - this.lastCpu.seconds) / ((now - this.lastCpu.at) / 1000)) * 100
      : 0;
    this.lastCpu = { seconds: cpuSeconds, at: now };
    return {
      rssMb,
      heapUsedMb: metrics ? (metrics.get('nodejs_heap_size_used_bytes') ?? Number.NaN) / 2 ** 20 : null,
      delay: metrics
        ? {
            p50: delayMs(metrics.get('nodejs_eventloop_lag_p50_seconds')),
            p99: delayMs(metrics.get('nodejs_eventloop_lag_p99_seconds')),
            max: delayMs(metrics.get('nodejs_eventloop_lag_max_seconds')),
          }
        : null,
      cpuPercent,
    };
  }

  private async scrape(url: string): Promise<Map<string, number>> {
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return parsePrometheusValues(await response.text());
  }
}
