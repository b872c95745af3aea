/**
 * The operator listing on enough rows for PostgreSQL's planner to care: every filter's query (the
 * very SQL the API runs) is served by its index, never a sequential scan, with and without a
 * cursor. Filters that leave many rows are read in newest-first index order (no sort); a filter
 * that leaves few (one recipient, one wallet) may fetch them by its index and sort those few.
 */
import { AdminPurchaseReads, type PurchaseListFilter } from '../src';
import { createTestDatabase, insertSyntheticPurchases, SYNTHETIC, type TestDatabase } from '../src/testing';

jest.setTimeout(120_000);

let database: TestDatabase;
let reads: AdminPurchaseReads;

beforeAll(async () => {
  database = await createTestDatabase();
  reads = new AdminPurchaseReads(database.db);
  await insertSyntheticPurchases(database.pool, 50_000);
  await database.pool.query('ANALYZE purchases');
});

afterAll(async () => {
  await database?.drop();
});

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function planOf(filter: PurchaseListFilter, withCursor: boolean): Promise<PlanNode[]> {
  const first = await reads.list(filter, null, 10);
  const cursor = withCursor ? first.next : null;
  if (withCursor) expect(cursor).not.toBeNull();
  const query = reads.listQuery(filter, cursor, 10).toSQL();
  const result = await database.pool.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
    `EXPLAIN (FORMAT JSON) ${query.sql}`,
    query.params,
  );
  return nodes(result.rows[0]!['QUERY PLAN'][0]!.Plan);
}

const createdFrom = new Date(Date.parse(SYNTHETIC.createdFrom) + 5);

test.each<[string, PurchaseListFilter, string[], 'ordered' | 'few']>([
  ['no filter', {}, ['purchases_created_idx'], 'ordered'],
  ['status', { status: 'reconciliation_required' }, ['purchases_status_created_idx'], 'ordered'],
  ['product', { product: 'premium' }, ['purchases_created_idx'], 'ordered'],
  ['payment_method', { paymentMethod: 'usdt' }, ['purchases_created_idx'], 'ordered'],
  [
    'created range',
    { createdFrom, createdTo: new Date(createdFrom.getTime() + 10) },
    ['purchases_created_idx'],
    'ordered',
  ],
  ['username', { username: '@user42' }, ['purchases_username_created_idx'], 'few'],
  ['wallet_address', { walletAddress: SYNTHETIC.wallet(3) }, ['purchases_wallet_created_idx'], 'few'],
  ['idempotency_key', { idempotencyKey: 'synthetic-77' }, ['purchases_idempotency_key_idx'], 'few'],
  [
    'status and username',
    { status: 'completed', username: '@user42' },
    ['purchases_status_created_idx', 'purchases_username_created_idx'],
    'few',
  ],
])('%s: served by its index, first page and after a cursor', async (_label, filter, indexes, rows) => {
  for (const withCursor of filter.idempotencyKey ? [false] : [false, true]) {
    const plan = await planOf(filter, withCursor);
    const types = plan.map((node) => node['Node Type']);
    expect(types).not.toContain('Seq Scan');
    if (rows === 'ordered') expect(types).not.toContain('Sort');
    const used = plan.map((node) => node['Index Name']).filter((name): name is string => name !== undefined);
    expect(used.some((name) => indexes.includes(name))).toBe(true);
  }
});
