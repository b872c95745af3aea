import type { UpstreamFormatErrorRepository } from '@starsgate/db';
import type { Logger } from '@starsgate/platform';
import type { WorkerMetrics } from '../../observability/worker-metrics';

/**
 * Reports an upstream answer we cannot read (a history page of unknown shape) once per session
 * and source in this process: an error in the logs, the metric, and a row the admin stats read.
 * It is never read as "not delivered": the caller keeps the purchase out of `completed` on it and
 * names it in the reconciliation evidence.
 */
export class UpstreamFormatReporter {
  private readonly reported = new Set<string>();

  constructor(
    private readonly logger: Logger,
    readonly metrics: WorkerMetrics,
    private readonly records: UpstreamFormatErrorRepository,
  ) {}

  /** Resolves once recorded; a failing database write is logged, never thrown. */
  async report(source: string, sessionId: string, problem: string): Promise<void> {
    const key = `${source}\u0000${sessionId}`;
    if (this.reported.has(key)) return;
    this.reported.add(key);
    this.logger.error('upstream answer of an unknown format', {
      code: 'UPSTREAM_FORMAT',
      source,
      session: sessionId,
      problem,
    });
    this.metrics.upstreamFormatErrors.inc({ source });
    await this.records.record({ source, sessionId, problem }).catch((error: unknown) => {
      this.logger.warn('upstream format error not recorded', { source, error });
    });
  }
}
