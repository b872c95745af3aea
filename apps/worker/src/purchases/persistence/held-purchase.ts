import type { PurchaseFailure } from '@starsgate/domain';
import type { Fence, HeldLease, PurchaseChanges, PurchaseRow, SealedSecret } from '@starsgate/db';
import type { StepDeps } from '../step-deps';
import { decide } from './purchase-decision';
import { applyDecision, enterWalletSender } from './purchase-writer';

/**
 * A purchase row held by this job under its lease. Every write is fenced on (id, version,
 * lease owner); a lost fence raises LeaseLostError so the step stops before any further side
 * effect. Writes that end the job release the lease and enqueue the job of the new version.
 */
export class HeldPurchase {
  constructor(
    private readonly deps: StepDeps,
    private current: PurchaseRow,
    readonly owner: string,
    /** The sealed wallet secret, as read with the claim of a purchase that may sign (`preparing`). */
    readonly sealedSecret: SealedSecret | null = null,
  ) {}

  get row(): PurchaseRow {
    return this.current;
  }

  get fence(): Fence {
    return { id: this.current.id, version: this.current.version, owner: this.owner };
  }

  /** Adopts a row version this lease committed (here or in a batch's statement); a status change is measured. */
  adopt(row: PurchaseRow): void {
    this.deps.transitionMetrics?.changed(this.current, row);
    this.current = row;
  }

  /** Status change (or a notable same-status step outcome) that keeps the lease. */
  async move(changes: PurchaseChanges, reason: string, data?: unknown): Promise<void> {
    await applyDecision(this.deps, this, decide.move(this.deps, this.current, changes, reason, data));
  }

  /** Ends this job: release the lease and run the next step after `delayMs` as a new job. */
  async reschedule(delayMs: number, changes: PurchaseChanges = {}, reason?: string, data?: unknown): Promise<void> {
    await applyDecision(this.deps, this, decide.reschedule(delayMs, changes, reason, data));
  }

  async enterWalletSender(
    walletLease: { name: string; owner: string; ttlMs: number },
    parkDelayMs: number,
    changes: PurchaseChanges = {},
    reason?: string,
    data?: unknown,
  ): Promise<{ lease: HeldLease | null; lost: boolean }> {
    return enterWalletSender(this.deps, this, walletLease, parkDelayMs, { changes, reason, data });
  }

  async retry(reason: string, data?: unknown, minDelayMs = 0): Promise<void> {
    await applyDecision(this.deps, this, decide.retry(this.deps, this.current, reason, data, minDelayMs));
  }

  async fail(
    failure: PurchaseFailure,
    reason: string,
    data?: unknown,
    status: 'failed' | 'expired' = 'failed',
  ): Promise<void> {
    await applyDecision(this.deps, this, decide.fail(this.deps, failure, reason, data, status));
  }

  async reconcile(failure: PurchaseFailure, evidence: Record<string, unknown>, reason: string): Promise<void> {
    await applyDecision(this.deps, this, decide.reconcile(this.deps, this.current, failure, evidence, reason));
  }

  /** Merges keys into the `evidence` jsonb. */
  evidenceWith(extra: Record<string, unknown>): Record<string, unknown> {
    return { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...extra };
  }
}
