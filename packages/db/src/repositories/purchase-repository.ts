import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../database';
import { purchaseEvents, purchases, type NewPurchaseRow, type PurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import {
  insertIntakeBatch,
  intakeParameters,
  type PurchaseEventInput,
  type PurchaseIntake,
} from './purchase-intake-batch';

export type { PurchaseEventInput, PurchaseIntake } from './purchase-intake-batch';

/** The columns a client may see: what GET /api/v1/purchases/:id reads, and nothing else. */
const viewColumns = {
  id: purchases.id,
  status: purchases.status,
  product: purchases.product,
  username: purchases.username,
  amount: purchases.amount,
  paymentMethod: purchases.paymentMethod,
  transactionHash: purchases.transactionHash,
  error: purchases.error,
  createdAt: purchases.createdAt,
  updatedAt: purchases.updatedAt,
};
export type PurchaseViewRow = Pick<PurchaseRow, keyof typeof viewColumns>;

export type InsertPurchaseResult = { created: true; purchase: PurchaseRow } | { created: false; purchase: PurchaseRow };
export type IntakeOutcome = { ok: true; value: InsertPurchaseResult } | { ok: false; error: unknown };

/** Raised when a concurrent request holds the idempotency key's row lock past the wait bound. */
export class IdempotencyKeyLockedError extends Error {
  constructor() {
    super('idempotency key is locked by a concurrent request');
    this.name = 'IdempotencyKeyLockedError';
  }
}

/**
 * Raised when PostgreSQL refuses one purchase's values (a data exception or a check or not-null
 * violation): the request's content is at fault, not the service, so it is a client error.
 */
export class PurchaseRowRejectedError extends Error {
  constructor(readonly sqlState: string) {
    super(`PostgreSQL rejected the purchase's values (SQLSTATE ${sqlState})`);
    this.name = 'PurchaseRowRejectedError';
  }
}

const LOCK_NOT_AVAILABLE = '55P03';
const CHECK_VIOLATION = '23514';
const NOT_NULL_VIOLATION = '23502';
const DATA_EXCEPTION_CLASS = '22';

function rowRejection(error: unknown): PurchaseRowRejectedError | undefined {
  for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
    const code = (current as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      (code === CHECK_VIOLATION || code === NOT_NULL_VIOLATION || code.startsWith(DATA_EXCEPTION_CLASS))
    ) {
      return new PurchaseRowRejectedError(code);
    }
  }
  return undefined;
}

const INTAKE_SQL = `
  WITH purchase AS (
    INSERT INTO purchases (id, idempotency_key, request_fingerprint, fingerprint_key_id, status, product, username, amount,
                           payment_method, seed_format, account_index, requested_wallet_address, wallet_address, wallet_version, request_id)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
    ON CONFLICT (idempotency_key) DO NOTHING
    RETURNING *
  ), secret AS (
    INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext)
    SELECT id, $16, $17, $18 FROM purchase
  ), event AS (
    INSERT INTO purchase_events (purchase_id, from_status, to_status, version, actor, reason, data, request_id)
    SELECT id, $19, $20, version, $21, $22, $23::jsonb, $24 FROM purchase
  )
  SELECT * FROM purchase`;

const PURCHASE_COLUMNS = Object.entries(getTableColumns(purchases));

const VIEW_COLUMNS = Object.entries(viewColumns);

const VIEWS_BY_IDS_SQL = `SELECT ${VIEW_COLUMNS.map(([, column]) => column.name).join(', ')} FROM purchases WHERE id = ANY($1::uuid[])`;
const BY_KEYS_SQL = 'SELECT * FROM purchases WHERE idempotency_key = ANY($1::text[])';

/** Maps a raw row (snake_case, driver types) with Drizzle's own column decoders. */
function decodeRow<T>(
  columns: ReadonlyArray<readonly [string, { name: string; mapFromDriverValue(value: unknown): unknown }]>,
  raw: Record<string, unknown>,
): T {
  const row: Record<string, unknown> = {};
  for (const [key, column] of columns) {
    const value = raw[column.name];
    row[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return row as T;
}

/** A `purchases` row as the driver returns it from raw SQL (`RETURNING *`), typed like Drizzle's. */
export function fromDriverRow(raw: Record<string, unknown>): PurchaseRow {
  return decodeRow<PurchaseRow>(PURCHASE_COLUMNS, raw);
}

export class PurchaseRepository {
  // Prepared once: the hot reads skip query building and PostgreSQL re-planning per request.
  private readonly byId;
  private readonly viewById;
  private readonly byKey;

  constructor(private readonly db: Database) {
    this.byId = db
      .select()
      .from(purchases)
      .where(eq(purchases.id, sql.placeholder('id')))
      .prepare('purchase_by_id');
    this.viewById = db
      .select(viewColumns)
      .from(purchases)
      .where(eq(purchases.id, sql.placeholder('id')))
      .prepare('purchase_view_by_id');
    this.byKey = db
      .select()
      .from(purchases)
      .where(eq(purchases.idempotencyKey, sql.placeholder('key')))
      .prepare('purchase_by_idempotency_key');
  }

  /**
   * Claims the idempotency key and stores the purchase, its first event and its sealed secret
   * in ONE statement (data-modifying CTEs are atomic), so intake costs a single round trip. A
   * concurrent duplicate waits on the unique index until the winner commits (bounded by the
   * connection's lock_timeout) and then finds the winner's row.
   */
  async insertOrGetByKey(
    row: NewPurchaseRow & { id: string },
    buildSecret: (purchaseId: string) => SealedSecret,
    event: PurchaseEventInput,
  ): Promise<InsertPurchaseResult> {
    const sealed = buildSecret(row.id);
    let inserted: Record<string, unknown> | undefined;
    try {
      const result = await this.db.$client.query<Record<string, unknown>>({
        name: 'purchase_intake',
        text: INTAKE_SQL,
        values: intakeParameters({ row, event }, sealed),
      });
      inserted = result.rows[0];
    } catch (error) {
      if (hasCode(error, LOCK_NOT_AVAILABLE)) throw new IdempotencyKeyLockedError();
      throw rowRejection(error) ?? error;
    }
    if (inserted) return { created: true, purchase: fromDriverRow(inserted) };
    const existing = await this.findByIdempotencyKey(row.idempotencyKey);
    if (!existing) throw new Error('idempotency key conflict without a row');
    return { created: false, purchase: existing };
  }

  /**
   * `insertOrGetByKey` for many requests at once, as one statement and one commit (group commit).
   * Requests sharing an idempotency key inside the batch resolve to the first one's purchase
   * (`created: false` for the others, who then compare fingerprints like any replay). If the
   * batch statement fails, every request is retried on its own, so one bad or locked row fails
   * only its own request.
   */
  async insertManyOrGetByKey(intakes: readonly PurchaseIntake[]): Promise<IntakeOutcome[]> {
    const firstByKey = new Map<string, number>();
    intakes.forEach((intake, index) => {
      if (!firstByKey.has(intake.row.idempotencyKey)) firstByKey.set(intake.row.idempotencyKey, index);
    });
    const leaders = [...firstByKey.values()].map((index) => intakes[index] as PurchaseIntake);
    if (leaders.length === 1) return this.insertEachOrGetByKey(intakes);

    let inserted: Map<string, Record<string, unknown>>;
    try {
      inserted = await insertIntakeBatch(this.db.$client, leaders);
    } catch {
      return this.insertEachOrGetByKey(intakes);
    }
    const missing = leaders.map((intake) => intake.row.idempotencyKey).filter((key) => !inserted.has(key));
    const existing = new Map<string, PurchaseRow>();
    if (missing.length > 0) {
      const found = await this.db.$client.query({
        name: 'purchases_by_idempotency_keys',
        text: BY_KEYS_SQL,
        values: [missing],
      });
      for (const raw of found.rows as Array<Record<string, unknown>>)
        existing.set(raw.idempotency_key as string, fromDriverRow(raw));
    }
    const created = new Map([...inserted].map(([key, raw]) => [key, fromDriverRow(raw)]));
    return intakes.map((intake, index): IntakeOutcome => {
      const key = intake.row.idempotencyKey;
      const own = firstByKey.get(key) === index ? created.get(key) : undefined;
      if (own) return { ok: true, value: { created: true, purchase: own } };
      const purchase = created.get(key) ?? existing.get(key);
      return purchase
        ? { ok: true, value: { created: false, purchase } }
        : { ok: false, error: new Error('idempotency key conflict without a row') };
    });
  }

  /** One statement per request, in order, so same-key requests see each other's rows. */
  private async insertEachOrGetByKey(intakes: readonly PurchaseIntake[]): Promise<IntakeOutcome[]> {
    const outcomes: IntakeOutcome[] = [];
    for (const { row, buildSecret, event } of intakes) {
      try {
        outcomes.push({ ok: true, value: await this.insertOrGetByKey(row, buildSecret, event) });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  }

  async findById(id: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.byId.execute({ id });
    return row;
  }

  async findViewById(id: string): Promise<PurchaseViewRow | undefined> {
    const [row] = await this.viewById.execute({ id });
    return row;
  }

  /** Many reads in one statement; ids without a purchase are simply absent from the result. */
  async findViewsByIds(ids: readonly string[]): Promise<PurchaseViewRow[]> {
    const result = await this.db.$client.query({
      name: 'purchase_views_by_ids',
      text: VIEWS_BY_IDS_SQL,
      values: [ids],
    });
    return (result.rows as Array<Record<string, unknown>>).map((raw) => decodeRow<PurchaseViewRow>(VIEW_COLUMNS, raw));
  }

  async findByIdempotencyKey(key: string): Promise<PurchaseRow | undefined> {
    const [row] = await this.byKey.execute({ key });
    return row;
  }

  async events(purchaseId: string) {
    return this.db
      .select()
      .from(purchaseEvents)
      .where(eq(purchaseEvents.purchaseId, purchaseId))
      .orderBy(purchaseEvents.id);
  }

  /**
   * Live purchases that nobody holds and that are due: the sweeper checks each one has a job.
   */
  async listDueUnleased(limit: number): Promise<Array<Pick<PurchaseRow, 'id' | 'version' | 'nextRunAt' | 'status'>>> {
    return this.db
      .select({
        id: purchases.id,
        version: purchases.version,
        nextRunAt: purchases.nextRunAt,
        status: purchases.status,
      })
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
