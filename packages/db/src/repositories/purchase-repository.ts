import { getTableColumns } from 'drizzle-orm';
import type { Database } from '../database';
import { purchaseEvents, purchases, type NewPurchaseRow, type PurchaseEventRow, type PurchaseRow } from '../schema';
import type { SealedSecret } from '../secrets/secret-vault';
import { purchaseLeaseIsFree } from '../sql/lease-expressions';
import type { NamedStatement } from '../sql/named-statement';
import { INSERT_PURCHASE_INTAKE, INTAKE_RESULT_COLUMNS, type IntakeRow } from '../sql/purchase-intake';
import { TERMINAL_STATUS_LIST } from '../sql/domain-lists';
import { orderByIdempotencyKey } from '../sql/order-by-idempotency-key';
import { decodeRow, fromDriverRow } from './driver-rows';
import { insertOrGetByKey, type KeyedInsertResult } from './keyed-insert';
import {
  insertIntakeBatch,
  intakeParameters,
  scopedKey,
  type PurchaseEventInput,
  type PurchaseIntake,
} from './purchase-intake-batch';

export type { PurchaseEventInput, PurchaseIntake } from './purchase-intake-batch';
export type { IntakeRow } from '../sql/purchase-intake';

/** The columns a client may see: what GET /api/v1/purchases/:id reads, and nothing else. */
const viewColumns = {
  id: purchases.id,
  mode: purchases.mode,
  status: purchases.status,
  product: purchases.product,
  username: purchases.username,
  amount: purchases.amount,
  orderLine: purchases.orderLine,
  paymentMethod: purchases.paymentMethod,
  transactionHash: purchases.transactionHash,
  error: purchases.error,
  createdAt: purchases.createdAt,
  updatedAt: purchases.updatedAt,
};
export type PurchaseViewRow = Pick<PurchaseRow, keyof typeof viewColumns>;

export type InsertPurchaseResult = KeyedInsertResult<PurchaseRow>;
/** A batched intake's answer for one request: the purchase it stored or found, as much of it as intake needs. */
export type IntakeResult = KeyedInsertResult<IntakeRow>;
export type IntakeOutcome = { ok: true; value: IntakeResult } | { ok: false; error: unknown };

const VIEW_COLUMNS = Object.entries(viewColumns);
const EVENT_COLUMNS = Object.entries(getTableColumns(purchaseEvents));
const INTAKE_COLUMNS = Object.entries(INTAKE_RESULT_COLUMNS);
const DUE_COLUMNS = Object.entries({
  id: purchases.id,
  version: purchases.version,
  nextRunAt: purchases.nextRunAt,
  status: purchases.status,
});
export type DuePurchase = Pick<PurchaseRow, 'id' | 'version' | 'nextRunAt' | 'status'>;

// Named prepared statements: the hot reads skip query building and PostgreSQL re-planning per request.
const BY_ID = { name: 'purchase_by_id', text: 'SELECT * FROM purchases WHERE id = $1' };
const VIEWS_BY_IDS = {
  name: 'purchase_views_by_ids',
  text: `SELECT ${VIEW_COLUMNS.map(([, column]) => column.name).join(', ')} FROM purchases WHERE id = ANY($1::uuid[])`,
};
const BY_KEY = orderByIdempotencyKey('purchase_by_idempotency_key', 'server_signed');
const BY_KEYS = {
  name: 'purchase_intake_rows_by_idempotency_keys',
  text: `SELECT ${INTAKE_COLUMNS.map(([, column]) => column.name).join(', ')} FROM purchases
    WHERE mode = 'server_signed'
      AND (idempotency_key, idempotency_scope) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
};
const EVENTS = { name: 'purchase_events', text: 'SELECT * FROM purchase_events WHERE purchase_id = $1 ORDER BY id' };
const DUE_UNLEASED = {
  name: 'purchases_due_unleased',
  text: `SELECT id, version, next_run_at, status FROM purchases
    WHERE status NOT IN ${TERMINAL_STATUS_LIST} AND ${purchaseLeaseIsFree()}
    ORDER BY next_run_at LIMIT $1`,
};

export class PurchaseRepository {
  constructor(private readonly db: Database) {}

  private async rows(statement: NamedStatement, values: unknown[]): Promise<Array<Record<string, unknown>>> {
    return (await this.db.$client.query<Record<string, unknown>>({ ...statement, values })).rows;
  }

  /**
   * Claims the idempotency key and stores the purchase, its first event and its sealed secret
   * in ONE statement (data-modifying CTEs are atomic), so intake costs a single round trip; or
   * finds the purchase already stored under the key (keyed-insert.ts).
   */
  insertOrGetByKey(
    row: NewPurchaseRow & { id: string },
    buildSecret: (purchaseId: string) => SealedSecret,
    event: PurchaseEventInput,
  ): Promise<InsertPurchaseResult> {
    const sealed = buildSecret(row.id);
    return insertOrGetByKey(
      async () => (await this.rows(INSERT_PURCHASE_INTAKE, intakeParameters({ row, event }, sealed)))[0],
      () => this.findByIdempotencyKey(row.idempotencyScope, row.idempotencyKey),
    );
  }

  /**
   * `insertOrGetByKey` for many requests at once, as one statement and one commit (group commit).
   * Requests sharing an idempotency key and payer scope inside the batch resolve to the first
   * one's purchase (`created: false` for the others, who then compare fingerprints like any replay). If the
   * batch statement fails, every request is retried on its own, so one bad or locked row fails
   * only its own request.
   */
  async insertManyOrGetByKey(intakes: readonly PurchaseIntake[]): Promise<IntakeOutcome[]> {
    const keyOf = ({ row }: PurchaseIntake) => scopedKey(row.idempotencyScope, row.idempotencyKey);
    const firstByKey = new Map<string, number>();
    intakes.forEach((intake, index) => {
      if (!firstByKey.has(keyOf(intake))) firstByKey.set(keyOf(intake), index);
    });
    const leaders = [...firstByKey.values()].map((index) => intakes[index] as PurchaseIntake);
    if (leaders.length === 1) return this.insertEachOrGetByKey(intakes);

    let inserted: Map<string, Record<string, unknown>>;
    try {
      inserted = await insertIntakeBatch(this.db.$client, leaders);
    } catch {
      return this.insertEachOrGetByKey(intakes);
    }
    const missing = leaders.filter((intake) => !inserted.has(keyOf(intake))).map(({ row }) => row);
    const existing = new Map<string, IntakeRow>();
    if (missing.length > 0) {
      const keys = missing.map((row) => row.idempotencyKey);
      const scopes = missing.map((row) => row.idempotencyScope);
      for (const raw of await this.rows(BY_KEYS, [keys, scopes])) {
        const row = decodeRow<IntakeRow>(INTAKE_COLUMNS, raw);
        existing.set(scopedKey(row.idempotencyScope, row.idempotencyKey), row);
      }
    }
    const created = new Map([...inserted].map(([key, raw]) => [key, decodeRow<IntakeRow>(INTAKE_COLUMNS, raw)]));
    return intakes.map((intake, index): IntakeOutcome => {
      const key = keyOf(intake);
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
    const [raw] = await this.rows(BY_ID, [id]);
    return raw ? fromDriverRow(raw) : undefined;
  }

  async findViewById(id: string): Promise<PurchaseViewRow | undefined> {
    const [view] = await this.findViewsByIds([id]);
    return view;
  }

  /** Many reads in one statement; ids without a purchase are simply absent from the result. */
  async findViewsByIds(ids: readonly string[]): Promise<PurchaseViewRow[]> {
    return (await this.rows(VIEWS_BY_IDS, [ids])).map((raw) => decodeRow<PurchaseViewRow>(VIEW_COLUMNS, raw));
  }

  /** The purchase `key` names among the purchases of the payer `scope` (its public key, hex). */
  async findByIdempotencyKey(scope: string, key: string): Promise<PurchaseRow | undefined> {
    const [raw] = await this.rows(BY_KEY, [scope, key]);
    return raw ? fromDriverRow(raw) : undefined;
  }

  async events(purchaseId: string): Promise<PurchaseEventRow[]> {
    return (await this.rows(EVENTS, [purchaseId])).map((raw) => decodeRow<PurchaseEventRow>(EVENT_COLUMNS, raw));
  }

  /**
   * Live purchases that nobody holds and that are due: the sweeper checks each one has a job.
   */
  async listDueUnleased(limit: number): Promise<DuePurchase[]> {
    return (await this.rows(DUE_UNLEASED, [limit])).map((raw) => decodeRow<DuePurchase>(DUE_COLUMNS, raw));
  }
}
