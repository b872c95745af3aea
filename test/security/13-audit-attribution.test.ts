/**
 * Attack 13 (docs/security.md): the audit trail named whoever the request body said. A resolution
 * was recorded as `operator:<body.operator>`, webhook changes were audited after (and apart from)
 * the change, Bull Board could pause or clean queues unrecorded, and the services connected as the
 * role that owns the tables. Now every admin change records the authenticated token as its actor
 * in the change's own transaction (the body's name is a label), Bull Board is read-only unless
 * BULL_BOARD_WRITABLE, and migrate grants the services a role that reads and writes rows only.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { connectDatabase, migrateDatabase, type DatabaseHandle } from '@starsgate/db';
import { TEST_DATABASE_ADMIN_URL } from '@starsgate/db/testing';
import { adminTokenId } from '@starsgate/gateway';
import { startStack, type RunningStack } from '../support/running-stack';
import { buyStars, demoWallets, gatewayKeys, waitForStatus } from './support/stack-client';

jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '../..');
/** The DML-only role migrate creates here (roles are per cluster: a name of its own). */
const ROLE = `starsgate_app_${randomBytes(4).toString('hex')}`;
let stack: RunningStack;
let database: DatabaseHandle;
let service: Client | undefined;
let actor: string;

beforeAll(async () => {
  stack = await startStack();
  database = connectDatabase(stack.database.url, { max: 2 });
  actor = `token:${adminTokenId(stack.adminToken, gatewayKeys(stack))}`;
});
afterAll(async () => {
  await service?.end();
  await database?.close();
  // The role owns nothing; its grants live in the stack's database, which stop() drops.
  await stack?.stop();
  const owner = new Client({ connectionString: TEST_DATABASE_ADMIN_URL });
  await owner.connect();
  await owner.query(`DROP ROLE IF EXISTS ${ROLE}`);
  await owner.end();
});

const admin = (pathname: string, init: { method?: string; body?: unknown } = {}) =>
  fetch(`${stack.adminUrl}${pathname}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });

/**
 * Makes every insert into `table` fail while `run` runs: the audit write breaks, as a full disk or
 * a lost connection would break it, and the change it records must not survive without it.
 */
async function withAuditWritesFailing<T>(table: string, run: () => Promise<T>): Promise<T> {
  await database.pool.query(`
    CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'audit write refused by the test'; END $$;
    CREATE TRIGGER refuse_audit BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_audit();`);
  try {
    return await run();
  } finally {
    await database.pool.query(`DROP TRIGGER refuse_audit ON ${table}; DROP FUNCTION refuse_audit();`);
  }
}

test('a resolution names the token that made it, not the body: the body says alice, the actor is the token', async () => {
  // A completed purchase, reopened as a reconciliation case: its real payment is the evidence.
  const wallet = (await demoWallets(stack)).find((entry) => entry.id === 'bip39-0')!;
  const id = await buyStars(stack, wallet, '@alice', randomUUID());
  await waitForStatus(stack, id, 'completed');
  const {
    rows: [paid],
  } = await database.pool.query<{ transaction_hash: string }>(
    `UPDATE purchases SET status = 'reconciliation_required', completed_at = NULL
       WHERE id = $1 RETURNING transaction_hash`,
    [id],
  );
  const body = { outcome: 'completed', reason: 'checked on fragment.com', operator: 'alice' };
  const resolve = () =>
    admin(`/admin/api/purchases/${id}/resolve`, {
      method: 'POST',
      body: { ...body, transaction_hash: paid!.transaction_hash },
    });
  const events = async () =>
    (
      await database.pool.query<{ actor: string; data: { operator?: string } | null }>(
        `SELECT actor, data FROM purchase_events WHERE purchase_id = $1 AND to_status = 'completed' AND reason = $2`,
        [id, body.reason],
      )
    ).rows;

  // The audit event cannot be written: the transition does not happen either.
  const refused = await withAuditWritesFailing('purchase_events', resolve);
  expect(refused.status).toBe(500);
  const { rows: unchanged } = await database.pool.query('SELECT status FROM purchases WHERE id = $1', [id]);
  expect({ status: unchanged[0].status, events: await events() }).toEqual({
    status: 'reconciliation_required',
    events: [],
  });

  const resolved = await resolve();
  expect(resolved.status).toBe(200);
  expect(await events()).toEqual([{ actor, data: expect.objectContaining({ operator: 'alice' }) }]);
  const detail = (await resolved.json()) as { events: Array<{ actor: string }>; evidence: { resolution: unknown } };
  expect(detail.events.at(-1)!.actor).toBe(actor);
  expect(detail.evidence.resolution).toMatchObject({ actor, operator: 'alice' });
});

test('a webhook change is recorded with the token identity, in its own transaction', async () => {
  const url = 'http://127.0.0.1:9/hooks';
  const create = () =>
    fetch(`${stack.adminUrl}/admin/api/webhook-endpoints`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${stack.adminToken}`,
        'content-type': 'application/json',
        'starsgate-operator': 'somebody-else',
      },
      body: JSON.stringify({ url }),
    });

  // No record, no endpoint: the change and its audit row commit together or not at all.
  const refused = await withAuditWritesFailing('admin_actions', create);
  expect(refused.status).toBe(500);
  expect((await database.pool.query('SELECT id FROM webhook_endpoints')).rows).toEqual([]);

  const created = await create();
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: string };
  expect((await admin(`/admin/api/webhook-endpoints/${id}`, { method: 'DELETE' })).status).toBe(204);
  const { rows } = await database.pool.query(
    'SELECT action, actor, operator, token_id FROM admin_actions WHERE target_id = $1 ORDER BY id',
    [id],
  );
  expect(rows).toEqual([
    {
      action: 'webhook_endpoint.created',
      actor,
      operator: 'somebody-else',
      token_id: adminTokenId(stack.adminToken, gatewayKeys(stack)),
    },
    {
      action: 'webhook_endpoint.deleted',
      actor,
      operator: `token:${adminTokenId(stack.adminToken, gatewayKeys(stack))}`,
      token_id: adminTokenId(stack.adminToken, gatewayKeys(stack)),
    },
  ]);
});

test('Bull Board refuses retry, clean and pause by default, even to a logged-in dashboard session', async () => {
  const origin = stack.adminUrl;
  const login = await fetch(`${origin}/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token: stack.adminToken, operator: 'dashboard' }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
  const board = (pathname: string, method = 'GET') =>
    fetch(`${origin}/admin/queues/api${pathname}`, { method, headers: { cookie, origin } });

  const changes: Array<[string, string]> = [
    ['PUT', '/queues/purchases/pause'],
    ['PUT', '/queues/pause'],
    ['PUT', '/queues/purchases/retry/failed'],
    ['PUT', '/queues/purchases/clean/completed'],
    ['PUT', '/queues/purchases/empty'],
    ['PUT', '/queues/purchases/obliterate'],
    ['POST', '/queues/purchases/add'],
  ];
  const answers = await Promise.all(
    changes.map(async ([method, pathname]) => {
      const response = await board(pathname, method);
      return { pathname, status: response.status, code: ((await response.json()) as { code?: string }).code };
    }),
  );
  expect(answers).toEqual(changes.map(([, pathname]) => ({ pathname, status: 405, code: 'ADMIN_QUEUES_READ_ONLY' })));
  const listed = (await (await board('/queues')).json()) as { queues: Array<{ name: string; isPaused: boolean }> };
  expect(listed.queues.map((queue) => [queue.name, queue.isPaused]).sort()).toEqual([
    ['purchases', false],
    ['webhook-deliveries', false],
  ]);
});

describe('the services role migrate grants (SERVICE_DATABASE_URL)', () => {
  let serviceUrl: string;
  let db: Client;

  beforeAll(async () => {
    const url = new URL(stack.database.url);
    url.username = ROLE;
    url.password = 'service-role-password';
    serviceUrl = url.toString();
    // The migrate image's entry point, as compose and k8s run it: the owner's URL and the service role's.
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'packages/db/src/cli/migrate.ts'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: stack.database.url, SERVICE_DATABASE_URL: serviceUrl },
    });
    db = service = new Client({ connectionString: serviceUrl });
    await db.connect();
  });

  test('reads and writes rows, and starts like the apps do (migrations already applied: no DDL needed)', async () => {
    await expect(migrateDatabase(serviceUrl)).resolves.toBeUndefined();
    const inserted = await db.query<{ id: number }>(
      `INSERT INTO admin_actions (actor, operator, token_id, action, target_id)
         VALUES ('token:test', 'test', 'test', 'test.action', 'target') RETURNING id`,
    );
    const read = await db.query('SELECT action FROM admin_actions WHERE id = $1', [inserted.rows[0]!.id]);
    expect(read.rows).toEqual([{ action: 'test.action' }]);
    const updated = await db.query(
      'UPDATE purchases SET attempt = attempt WHERE id = (SELECT id FROM purchases LIMIT 1)',
    );
    expect(updated.rowCount).toBe(1);
  });

  test.each([
    'DROP TABLE purchases',
    'ALTER TABLE purchases ADD COLUMN smuggled text',
    'TRUNCATE admin_actions',
    'TRUNCATE purchase_events',
    'CREATE TABLE smuggled (id int)',
    // The triggers that keep the audit append-only stay: only the owner could drop them.
    'DROP TRIGGER purchase_events_no_update_or_delete ON purchase_events',
    'ALTER TABLE admin_actions DISABLE TRIGGER admin_actions_no_update_or_delete',
  ])('%s: permission denied', async (statement) => {
    await expect(db.query(statement)).rejects.toMatchObject({ code: '42501' });
  });
});
