import { Counter, Registry } from 'prom-client';

/** The worker's Prometheus registry (served on /metrics once the worker exposes one). */
export interface WorkerMetrics {
  registry: Registry;
  /** Upstream answers of a shape we cannot read, once per session and source per process. */
  upstreamFormatErrors: Counter<'source'>;
}

export function createWorkerMetrics(): WorkerMetrics {
  const registry = new Registry();
  const upstreamFormatErrors = new Counter({
    name: 'starsgate_upstream_format_errors_total',
    help: 'Upstream answers of an unknown shape (e.g. a Fragment history page whose markup changed), once per session',
    labelNames: ['source'],
    registers: [registry],
  });
  return { registry, upstreamFormatErrors };
}
