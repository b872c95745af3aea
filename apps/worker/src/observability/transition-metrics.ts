import type { PurchaseRow } from '@starsgate/db';
import { isTerminalStatus } from '@starsgate/domain';
import type { WorkerMetrics } from './worker-metrics';

type Observed = Pick<PurchaseRow, 'status' | 'stepStartedAt' | 'createdAt' | 'product' | 'paymentMethod' | 'mode'>;

/** Turns the state machine's committed status changes into the purchase series. */
export class TransitionMetrics {
  constructor(
    private readonly metrics: WorkerMetrics,
    private readonly now: () => number = Date.now,
  ) {}

  /** A committed write of one purchase (`before` → `after`); a same-status write is no change. */
  changed(before: Observed, after: Observed): void {
    if (before.status === after.status) return;
    const now = this.now();
    this.metrics.statusDuration.observe(
      { status: before.status },
      Math.max(0, now - before.stepStartedAt.getTime()) / 1000,
    );
    if (!isTerminalStatus(after.status)) return;
    const labels = {
      mode: after.mode,
      product: after.product,
      payment_method: after.paymentMethod,
      status: after.status,
    };
    this.metrics.purchasesFinished.inc(labels);
    this.metrics.endToEnd.observe(labels, Math.max(0, now - after.createdAt.getTime()) / 1000);
  }

  /**
   * A claim that took a queued purchase into `preparing` ends its wait in the queue. The claim
   * stamps `step_started_at` and `updated_at` with the same statement time only then; a re-claim
   * of a purchase already preparing keeps its older `step_started_at`.
   */
  claimed(row: Pick<PurchaseRow, 'status' | 'stepStartedAt' | 'updatedAt' | 'createdAt'>): void {
    if (row.status !== 'preparing' || row.stepStartedAt.getTime() !== row.updatedAt.getTime()) return;
    this.metrics.statusDuration.observe(
      { status: 'queued' },
      Math.max(0, row.stepStartedAt.getTime() - row.createdAt.getTime()) / 1000,
    );
  }
}
