import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { PaymentMethod, Product, PurchaseMode, PurchaseStatus } from '@starsgate/domain';
import type { Database } from '../database';
import { purchaseEvents, purchases, type PurchaseRow, type SignedExternalRow } from '../schema';
import { before, epochMicros, keysetPage, type KeysetCursor } from './keyset';
import { lookalikeKey, lookalikesOnAccount, PaidLookalikes } from './paid-lookalikes';
import { SignedBatches } from './signed-batches';

/** Filters of the operator's purchase listing; each one that narrows the set has its own index. */
export interface PurchaseListFilter {
  status?: PurchaseStatus;
  /** `server_signed` (purchases) or `client_signed` (checkouts); filtered along the narrowing index. */
  mode?: PurchaseMode;
  product?: Product;
  paymentMethod?: PaymentMethod;
  /** Compared case-insensitively. */
  username?: string;
  /** Raw form (`0:<hex>`). */
  walletAddress?: string;
  idempotencyKey?: string;
  createdFrom?: Date;
  /** Exclusive. */
  createdTo?: Date;
}

export type PurchaseListCursor = KeysetCursor;

export interface PurchaseListPage {
  rows: PurchaseRow[];
  next: PurchaseListCursor | null;
}

export interface PurchaseStatusStat {
  status: string;
  count: number;
  /** The oldest row's entry into this status (step_started_at). */
  oldestSince: Date | null;
}

export interface PurchaseStats {
  byStatus: PurchaseStatusStat[];
  lastHour: { completed: number; failed: number };
}

function conditions(filter: PurchaseListFilter, cursor: PurchaseListCursor | null): SQL[] {
  const where: SQL[] = [];
  if (filter.status !== undefined) where.push(eq(purchases.status, filter.status));
  if (filter.mode !== undefined) where.push(eq(purchases.mode, filter.mode));
  if (filter.product !== undefined) where.push(eq(purchases.product, filter.product));
  if (filter.paymentMethod !== undefined) where.push(eq(purchases.paymentMethod, filter.paymentMethod));
  if (filter.username !== undefined) where.push(sql`lower(${purchases.username}) = ${filter.username.toLowerCase()}`);
  if (filter.walletAddress !== undefined) where.push(eq(purchases.walletAddress, filter.walletAddress));
  if (filter.idempotencyKey !== undefined) where.push(eq(purchases.idempotencyKey, filter.idempotencyKey));
  if (filter.createdFrom !== undefined) where.push(gte(purchases.createdAt, filter.createdFrom));
  if (filter.createdTo !== undefined) where.push(lt(purchases.createdAt, filter.createdTo));
  if (cursor) where.push(before(purchases.createdAt, purchases.id, cursor));
  return where;
}

/** Reads for the operator API: listings, one purchase with its timeline, counts. Never a wallet secret. */
export class AdminPurchaseReads {
  private readonly lookalikes: PaidLookalikes;
  private readonly batches: SignedBatches;

  constructor(private readonly db: Database) {
    this.lookalikes = new PaidLookalikes(db);
    this.batches = new SignedBatches(db);
  }

  /** The listing query, exposed so a test can EXPLAIN exactly what the API runs. */
  listQuery(filter: PurchaseListFilter, cursor: PurchaseListCursor | null, limit: number) {
    return this.db
      .select({ row: purchases, createdMicros: epochMicros(purchases.createdAt) })
      .from(purchases)
      .where(and(...conditions(filter, cursor)))
      .orderBy(desc(purchases.createdAt), desc(purchases.id))
      .limit(limit + 1);
  }

  /** Newest first, keyset-paginated: `limit` rows and the cursor after the last one (null at the end). */
  async list(filter: PurchaseListFilter, cursor: PurchaseListCursor | null, limit: number): Promise<PurchaseListPage> {
    const { page, next } = keysetPage(await this.listQuery(filter, cursor, limit), limit, (entry) => ({
      micros: entry.createdMicros,
      id: entry.row.id,
    }));
    return { rows: page.map((entry) => entry.row), next };
  }

  /** Open reconciliation cases, least recently touched first (the evidence collector's round). */
  async reconciliationCases(limit: number): Promise<PurchaseRow[]> {
    return this.db
      .select()
      .from(purchases)
      .where(eq(purchases.status, 'reconciliation_required'))
      .orderBy(purchases.updatedAt)
      .limit(limit);
  }

  async find(id: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.db.select().from(purchases).where(eq(purchases.id, id));
    return row;
  }

  async timeline(id: string) {
    return this.db.select().from(purchaseEvents).where(eq(purchaseEvents.purchaseId, id)).orderBy(purchaseEvents.id);
  }

  /**
   * Why a paid purchase may still wait for Fragment's delivery: our other paid look-alikes (same
   * recipient, product and quantity, on the same Fragment account) not completed yet. The history
   * tells identical orders apart by count only, so each of them must be listed before this one's
   * row can vouch (docs/fragment-protocol.md §17.5). Ids, oldest first; none unless it is paid and
   * confirming (or was, when it went to reconciliation).
   */
  async waitingOnLookalikes(row: PurchaseRow): Promise<string[]> {
    if (row.transactionHash === null || (row.status !== 'confirming' && row.status !== 'reconciliation_required'))
      return [];
    const lookalikes = (await this.lookalikes.since([row], row.createdAt)).get(lookalikeKey(row)) ?? [];
    const open = lookalikes.filter((other) => other.id !== row.id && other.completedAt === null);
    return lookalikesOnAccount(open, row.paymentRequest?.fragmentAccount)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
      .map((other) => other.id);
  }

  async signedExternal(batchId: string): Promise<SignedExternalRow | undefined> {
    return (await this.batches.external(batchId)) ?? undefined;
  }

  async stats(): Promise<PurchaseStats> {
    const [byStatus, lastHour] = await Promise.all([
      this.db
        .select({
          status: purchases.status,
          count: sql<number>`count(*)::int`,
          oldestSince: sql<Date | null>`min(${purchases.stepStartedAt})`.mapWith(purchases.stepStartedAt),
        })
        .from(purchases)
        .groupBy(purchases.status),
      this.db
        .select({
          completed: sql<number>`count(*) FILTER (WHERE ${purchases.status} = 'completed')::int`,
          failed: sql<number>`count(*) FILTER (WHERE ${purchases.status} = 'failed')::int`,
        })
        .from(purchases)
        .where(sql`${purchases.completedAt} > now() - interval '1 hour'`),
    ]);
    return { byStatus, lastHour: lastHour[0] ?? { completed: 0, failed: 0 } };
  }
}
