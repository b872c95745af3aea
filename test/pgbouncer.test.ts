/**
 * Behind PgBouncer in transaction mode (issue 40 §3, docs/deployment.md "Connection budget"): a
 * real PgBouncer (Debian's 1.18, no prepared-statement support in that mode) started here on a free
 * loopback port in front of a throw-away database, with fewer server connections than the clients
 * ask for, so consecutive statements of one client land on different server connections.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { connectDatabase, ensureDatabase, LeaseRepository, migrateOrCheck, type DatabaseHandle } from '@starsgate/db';
import {
  createTestDatabase,
  TEST_DATABASE_ADMIN_URL,
  testDatabaseName,
  type TestDatabase,
} from '@starsgate/db/testing';
import { freePort, waitFor } from '@starsgate/platform/testing';
import { FAST_FRAGMENT_TIMINGS } from '@starsgate/sandbox/fragment';
import { PgBouncer, pgbouncerBinary, startStack, type Stack } from '@starsgate/stack';

jest.setTimeout(120_000);

const binary = pgbouncerBinary();
if (!binary) {
  // CI installs it (.ci/run); on a developer's machine: apt-get install -y pgbouncer.
  process.stderr.write(
    'test/pgbouncer.test.ts skipped: no pgbouncer binary (apt-get install -y pgbouncer, or set PGBOUNCER_PATH)\n',
  );
}
const describeWithPgBouncer = binary ? describe : describe.skip;

/** Server connections PgBouncer opens to PostgreSQL: fewer than each client pool's. */
const SERVER_CONNECTIONS = 2;

describeWithPgBouncer('the database layer through PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    bouncer = new PgBouncer({
      binary: binary!,
      port: await freePort(),
      upstreamUrl: database.url,
      poolSize: SERVER_CONNECTIONS,
    });
    await bouncer.start();
  });
  afterAll(async () => {
    await Promise.all(handles.map((handle) => handle.close().catch(() => undefined)));
    await bouncer?.stop();
    await database?.drop();
  });

  function connect(transactionPooler: boolean, service: 'worker' | 'gateway' = 'worker'): DatabaseHandle {
    const handle = connectDatabase(bouncer.url(service), { max: 8, lockTimeoutMs: 2_000, transactionPooler });
    handles.push(handle);
    return handle;
  }

  /** Named statements (lease-statements.ts) from many clients at once, each several times over. */
  async function leaseRounds(handle: DatabaseHandle): Promise<number> {
    const leases = new LeaseRepository(handle.db);
    const rounds = await Promise.all(
      Array.from({ length: 24 }, async (_, index) => {
        const name = `pgbouncer-${index}-${randomUUID()}`;
        const held = await leases.acquire(name, 'owner-a', 30_000);
        if (!held) throw new Error(`lease ${name} not acquired`);
        if (!(await leases.renew(held, 30_000))) throw new Error(`lease ${name} not renewed`);
        await leases.release(held);
        return (await leases.acquire(name, 'owner-b', 30_000))?.fence;
      }),
    );
    return rounds.filter((fence) => fence === 2).length;
  }

  it('runs the named statements unnamed, from more clients than server connections', async () => {
    const handle = connect(true);
    expect(await leaseRounds(handle)).toBe(24);
    const { rows } = await handle.pool.query<{ clients: string }>(
      "SELECT count(*)::text AS clients FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'",
    );
    expect(Number(rows[0]!.clients)).toBeLessThanOrEqual(SERVER_CONNECTIONS + 1); // + the test database's own pool
  });

  it("carries the session settings through the pooler's connect_query, not the client's startup packet", async () => {
    const settings = async (service: 'worker' | 'gateway') => {
      const { rows } = await connect(true, service).pool.query<{ idle: string; lock: string }>(
        "SELECT current_setting('idle_in_transaction_session_timeout') AS idle, current_setting('lock_timeout') AS lock",
      );
      return rows[0];
    };
    expect(await settings('worker')).toEqual({ idle: '30s', lock: '0' });
    // The gateway's idempotency wait (IDEMPOTENCY_LOCK_TIMEOUT_MS) ends in 409, not in a queue behind the lock.
    expect(await settings('gateway')).toEqual({ idle: '30s', lock: '2s' });
  });

  it('does not migrate through the pooler: a database without the migrations stops the service with what to do', async () => {
    const direct = new URL(TEST_DATABASE_ADMIN_URL);
    direct.pathname = `/${testDatabaseName()}`; // dropped when the file ends (test/jest/environment.js)
    await ensureDatabase(direct.toString());
    const empty = new PgBouncer({
      binary: binary!,
      port: await freePort(),
      upstreamUrl: direct.toString(),
      poolSize: 1,
    });
    await empty.start();
    try {
      await expect(migrateOrCheck(empty.url('worker'), 'transaction')).rejects.toThrow(
        /run migrate with DATABASE_URL pointing at PostgreSQL directly/,
      );
    } finally {
      await empty.stop();
    }
    const client = new Client({ connectionString: direct.toString() });
    await client.connect();
    const { rows } = await client
      .query<{ table: string | null }>("SELECT to_regclass('drizzle.__drizzle_migrations')::text AS table")
      .finally(() => client.end());
    expect(rows[0]!.table).toBeNull();
  });

  it('without DATABASE_POOLER=transaction the same pool fails there (what the setting is for)', async () => {
    await expect(leaseRounds(connect(false))).rejects.toThrow(/unsupported startup parameter|prepared statement/);
  });
});

describeWithPgBouncer('the gateway and the worker behind PgBouncer in transaction mode', () => {
  let database: TestDatabase;
  let bouncer: PgBouncer;
  let stack: Stack;
  let logDir: string;

  beforeAll(async () => {
    // Migrated directly (createTestDatabase), as the migrate job does: the services only check.
    database = await createTestDatabase();
    bouncer = new PgBouncer({
      binary: binary!,
      port: await freePort(),
      upstreamUrl: database.url,
      poolSize: 4,
    });
    await bouncer.start();
    logDir = mkdtempSync(path.join(tmpdir(), 'pgbouncer-stack-'));
    stack = await startStack({
      logDir,
      databaseUrl: bouncer.url('worker'),
      gatewayEnv: { DATABASE_URL: bouncer.url('gateway') },
      redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      gateways: 1,
      workers: 1,
      proxy: false,
      sandboxEnv: {
        SANDBOX_SEED: `pgbouncer-${randomBytes(3).toString('hex')}`,
        SANDBOX_PRICE_DRIFT: 'off',
        SANDBOX_FRAGMENT_CONFIG: JSON.stringify(FAST_FRAGMENT_TIMINGS),
      },
      serviceEnv: { DATABASE_POOLER: 'transaction' },
    });
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await bouncer?.stop();
    await database?.drop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  it('takes purchases at once and completes every one, on four server connections per service', async () => {
    const demo = (await (await fetch(`${stack.sandboxUrl}/demo`)).json()) as { wallets: Array<{ seed: string }> };
    const ids = await Promise.all(
      [0, 1, 2].map(async (index) => {
        const created = await fetch(`${stack.url}/api/v1/purchases`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            product: 'stars',
            username: '@alice',
            amount: 50,
            payment_method: 'gram',
            seed: demo.wallets[index % demo.wallets.length]!.seed,
            account_index: 0,
            idempotency_key: `pgbouncer-${randomBytes(8).toString('hex')}`,
          }),
        });
        expect(created.status).toBe(202);
        return ((await created.json()) as { purchase_id: string }).purchase_id;
      }),
    );
    const statuses = await waitFor(
      async () => {
        const read = await Promise.all(
          ids.map(
            async (id) =>
              ((await (await fetch(`${stack.url}/api/v1/purchases/${id}`)).json()) as { status: string }).status,
          ),
        );
        return read.every((status) => ['completed', 'failed', 'reconciliation_required'].includes(status)) && read;
      },
      { timeoutMs: 120_000, intervalMs: 500, what: 'every purchase in a final status' },
    );
    expect(statuses).toEqual(['completed', 'completed', 'completed']);
    const connections = await database.pool.query<{ count: string }>(
      "SELECT count(*)::text AS count FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'starsgate' AND backend_type = 'client backend'",
    );
    expect(Number(connections.rows[0]!.count)).toBeLessThanOrEqual(2 * 4); // the worker's entry and the gateway's
  });
});
