import type { Fence, PurchaseRow, SealedSecret } from '@starsgate/db';
import type { StepDeps } from '../step-deps';

/**
 * A purchase row held by this job under its lease: the row as last written, and the fence
 * (id, version, lease owner) every write of it is made on. It writes nothing itself: a step's
 * decisions are applied by the one writer (purchase-writer.ts), and the row adopts what it wrote.
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

  /** Merges keys into the `evidence` jsonb. */
  evidenceWith(extra: Record<string, unknown>): Record<string, unknown> {
    return { ...((this.current.evidence as Record<string, unknown> | null) ?? {}), ...extra };
  }
}
