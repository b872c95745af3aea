import { Counter, Histogram, type Registry } from 'prom-client';
import { traceCall, tracingEnabled } from './tracing';

/** Upstreams the service calls; a label value, so the set is closed. */
export type UpstreamName = 'chain' | 'fragment' | 'fragment_reads';

export interface UpstreamMetrics {
  requests: Counter<'upstream' | 'method' | 'outcome'>;
  duration: Histogram<'upstream' | 'method'>;
}

/** Upstream calls by upstream and client method (a bounded set: the client's own method names). */
export function createUpstreamMetrics(registry: Registry): UpstreamMetrics {
  return {
    requests: new Counter({
      name: 'starsgate_upstream_requests_total',
      help: 'Upstream calls by upstream, client method and outcome (ok, error)',
      labelNames: ['upstream', 'method', 'outcome'],
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'starsgate_upstream_request_duration_seconds',
      help: 'Upstream call latency by upstream and client method, retries included',
      labelNames: ['upstream', 'method'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
  };
}

export type UpstreamCallObserver = (call: {
  upstream: UpstreamName;
  method: string;
  seconds: number;
  error?: unknown;
}) => void;

export interface InstrumentOptions {
  /** Hears every finished call, e.g. to track a session's health. */
  observe?: UpstreamCallObserver;
  /**
   * Methods that run a callback with a view of the client (FragmentClient.exclusive): the view
   * is instrumented as well, and the scope itself is not timed as a call.
   */
  scopes?: readonly string[];
}

/**
 * The same client, its asynchronous methods timed and counted, and each a span `<upstream>.<method>`
 * when tracing is on (the HTTP requests it makes are its children). Methods run on the real target
 * (so private state works), and a call's own result or error passes through untouched.
 */
export function instrumentUpstream<T extends object>(
  target: T,
  upstream: UpstreamName,
  metrics: UpstreamMetrics,
  options: InstrumentOptions = {},
): T {
  const record = (method: string, started: bigint, error?: unknown): void => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    metrics.duration.observe({ upstream, method }, seconds);
    metrics.requests.inc({ upstream, method, outcome: error === undefined ? 'ok' : 'error' });
    options.observe?.({ upstream, method, seconds, ...(error === undefined ? {} : { error }) });
  };
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property, object);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      const run = value as (...a: unknown[]) => unknown;
      if (options.scopes?.includes(property)) {
        return (scope: (view: object) => unknown, ...rest: unknown[]): unknown =>
          run.apply(object, [(view: object) => scope(instrumentUpstream(view, upstream, metrics, options)), ...rest]);
      }
      const call = (...args: unknown[]): unknown => {
        const started = process.hrtime.bigint();
        const result: unknown = run.apply(object, args);
        if (!(result instanceof Promise)) return result;
        return result.then(
          (resolved: unknown) => {
            record(property, started);
            return resolved;
          },
          (error: unknown) => {
            record(property, started, error ?? new Error('rejected'));
            throw error;
          },
        );
      };
      if (!tracingEnabled()) return call;
      return (...args: unknown[]): unknown =>
        traceCall(`${upstream}.${property}`, { 'starsgate.upstream': upstream }, () => call(...args));
    },
  });
}
