/**
 * An open-loop load generator in its own process: requests leave at a fixed arrival rate whatever
 * the answers, and each latency is measured from the request's scheduled send time, so a stalled
 * server is charged for every request that should have left meanwhile (no coordinated omission,
 * unlike a closed loop such as autocannon's). Options arrive as JSON in argv[2]; the result is
 * written to stdout as JSON. `[<id>]` in the path or body is replaced by a unique id per request.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';

export interface OpenLoopOptions {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  /** Requests per second. */
  rate: number;
  durationSeconds: number;
  /** Sockets the generator may open; a request finding none free waits, and its wait counts. */
  maxSockets: number;
  /** A request still unanswered after this long counts as a timeout. */
  timeoutMs: number;
}

export interface OpenLoopResult {
  rate: number;
  durationSeconds: number;
  sent: number;
  completed: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Completed requests per second of the schedule. */
  achievedRate: number;
  /** From the scheduled send time to the last byte of the answer, ms. */
  latencyMs: { p50: number; p90: number; p99: number; p999: number; max: number; mean: number };
  /** How late the generator itself sent requests (its own lag, which would bias the figures). */
  sendLagMs: { p99: number; max: number };
}

function quantile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

export function runOpenLoop(options: OpenLoopOptions): Promise<OpenLoopResult> {
  const target = new URL(options.url);
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  const total = Math.round(options.rate * options.durationSeconds);
  const intervalMs = 1000 / options.rate;
  const latencies = new Float64Array(total);
  const sendLag = new Float64Array(total);
  const prefix = `${process.pid.toString(36)}-${Date.now().toString(36)}`;
  let sent = 0;
  let finished = 0;
  let completed = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;

  return new Promise((resolve) => {
    const start = performance.now();

    const done = () => {
      agent.destroy();
      const ok = latencies.slice(0, completed).sort();
      const lag = sendLag.slice(0, sent).sort();
      let sum = 0;
      for (const value of ok) sum += value;
      resolve({
        rate: options.rate,
        durationSeconds: options.durationSeconds,
        sent,
        completed,
        non2xx,
        errors,
        timeouts,
        achievedRate: completed / options.durationSeconds,
        latencyMs: {
          p50: quantile(ok, 0.5),
          p90: quantile(ok, 0.9),
          p99: quantile(ok, 0.99),
          p999: quantile(ok, 0.999),
          max: ok.length ? ok[ok.length - 1]! : Number.NaN,
          mean: ok.length ? sum / ok.length : Number.NaN,
        },
        sendLagMs: { p99: quantile(lag, 0.99), max: lag.length ? lag[lag.length - 1]! : Number.NaN },
      });
    };

    const fire = (index: number, scheduledAt: number) => {
      const id = `${prefix}-${index}`;
      const body = options.body?.replaceAll('[<id>]', id);
      sendLag[sent++] = performance.now() - scheduledAt;
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`.replaceAll('[<id>]', id),
          method: options.method,
          headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : undefined,
        },
        (response) => {
          response.resume();
          response.once('end', () => {
            if (response.statusCode !== undefined && response.statusCode >= 200 && response.statusCode < 300)
              latencies[completed++] = performance.now() - scheduledAt;
            else non2xx++;
            settle();
          });
        },
      );
      request.setTimeout(options.timeoutMs, () => {
        timeouts++;
        request.destroy(new Error('timeout'));
      });
      request.once('error', () => {
        if (!request.destroyed || request.errored?.message !== 'timeout') errors++;
        settle();
      });
      request.end(body);
    };

    let settled = false;
    const settle = () => {
      finished++;
      if (finished === total && !settled) {
        settled = true;
        done();
      }
    };

    // setImmediate rather than timers: a timer's 1 ms granularity would bunch sends at high rates.
    let next = 0;
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * intervalMs <= now) {
        fire(next, start + next * intervalMs);
        next++;
      }
      if (next < total) setImmediate(tick);
    };
    tick();
  });
}

if (require.main === module) {
  runOpenLoop(JSON.parse(process.argv[2] ?? '{}') as OpenLoopOptions)
    .then((result) => process.stdout.write(JSON.stringify(result)))
    .catch((error: unknown) => {
      process.stderr.write(String(error));
      process.exit(1);
    });
}
