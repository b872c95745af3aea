import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { purchaseEvents, purchases, walletSecrets, type NewPurchaseRow, type PurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';

export interface PurchaseEventInput {
  fromStatus: string | null;
  toStatus: string;
  actor: string;
  reason?: string;
  data?: unknown;
  requestId?: string;
}

export type InsertPurchaseResult = { created: true; purchase: PurchaseRow } | { created: false; purchase: PurchaseRow };

/** Raised when a concurrent request holds the idempotency key's row lock past the wait bound. */
export class IdempotencyKeyLockedError extends Error {
  constructor() {
    super('idempotency key is locked by a concurrent request');
    this.name = 'IdempotencyKeyLockedError';
  }
}

const LOCK_NOT_AVAILABLE = '55P03';

export class PurchaseRepository {
  constructor(private readonly db: Database) {}

  /**
   * Claims the idempotency key and stores the purchase, its first event and its sealed
   * secret in one transaction. A concurrent duplicate waits on the unique index (bounded by
   * `lockTimeoutMs`) and then sees the winner's row.
   */
  async insertOrGetByKey(
    row: NewPurchaseRow & { id: string },
    buildSecret: (purchaseId: string) => SealedSecret,
    event: PurchaseEventInput,
    lockTimeoutMs = 2_000,
  ): Promise<InsertPurchaseResult> {
    try {
      return await this.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`SET LOCAL lock_timeout = '${Math.max(1, Math.floor(lockTimeoutMs))}ms'`));
        const inserted = await tx.insert(purchases).values(row).onConflictDoNothing({ target: purchases.idempotencyKey }).returning();
        const purchase = inserted[0];
        if (!purchase) {
          const [existing] = await tx.select().from(purchases).where(eq(purchases.idempotencyKey, row.idempotencyKey));
          if (!existing) throw new Error('idempotency key conflict without a row');
          return { created: false as const, purchase: existing };
        }
        const sealed = buildSecret(purchase.id);
        await tx.insert(walletSecrets).values({ purchaseId: purchase.id, ...sealed });
        await tx.insert(purchaseEvents).values({ purchaseId: purchase.id, version: purchase.version, ...event });
        return { created: true as const, purchase };
      });
    } catch (error) {
      if (hasCode(error, LOCK_NOT_AVAILABLE)) throw new IdempotencyKeyLockedError();
      throw error;
    }
  }

  async findById(id: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.db.select().from(purchases).where(eq(purchases.id, id));
    return row;
  }

  async findByIdempotencyKey(key: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.db.select().from(purchases).where(eq(purchases.idempotencyKey, key));
    return row;
  }

  async events(purchaseId: string) {
    return this.db.select().from(purchaseEvents).where(eq(purchaseEvents.purchaseId, purchaseId)).orderBy(purchaseEvents.id);
  }

  /**
   * Live purchases that nobody holds and that are due: the sweeper checks each one has a job.
   */
  async listDueUnleased(limit: number): Promise<Array<Pick<PurchaseRow, 'id' | 'version' | 'nextRunAt'>>> {
    return this.db
      .select({ id: purchases.id, version: purchases.version, nextRunAt: purchases.nextRunAt })
      .from(purchases)
      .where(
        and(
          sql`${purchases.status} NOT IN ('completed', 'failed', 'reconciliation_required')`,
          sql`(${purchases.leaseOwner} IS NULL OR ${purchases.leaseExpiresAt} < now())`,
        ),
      )
      .orderBy(purchases.nextRunAt)
      .limit(limit);
  }
}

function hasCode(error: unknown, code: string): boolean {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    if ((current as { code?: string }).code === code) return true;
  }
  return false;
}
