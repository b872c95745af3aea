/**
 * The worker's fenced writes on real PostgreSQL: the claim that starts a queued purchase, and
 * applyMany over several held rows (events, evidence merge, lost fences, secret destruction), and
 * the parked rows a shared look lists and claims.
 */
import { randomUUID } from 'node:crypto';
import {
  LOOKALIKE_OPEN_LOOKBACK_MS,
  lookalikeKey,
  lookalikeWindow,
  PaidLookalikes,
} from '../src/repositories/paid-lookalikes';
import { ParkedPurchases } from '../src/repositories/parked-purchases';
import { PurchaseTransitions } from '../src/repositories/purchase-transitions';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
let transitions: PurchaseTransitions;
let paidLookalikes: PaidLookalikes;
let parkedPurchases: ParkedPurchases;

beforeAll(async () => {
  database = await createTestDatabase();
  transitions = new PurchaseTransitions(database.db);
  paidLookalikes = new PaidLookalikes(database.db);
  parkedPurchases = new ParkedPurchases(database.db);
});
afterAll(() => database.drop());

async function insertPurchase(status = 'queued', evidence: unknown = null): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format, evidence)
     VALUES ($1, $2, 'payer', 'f', 'k', $3, 'stars', '@alice', 50, 'gram', 'base64_key', $4)`,
    [id, `key-${id}`, status, evidence === null ? null : JSON.stringify(evidence)],
  );
  await database.pool.query(
    "INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext) VALUES ($1, 'k1', 'wrapped', 'sealed')",
    [id],
  );
  return id;
}

async function events(id: string): Promise<
  Array<{
    from_status: string | null;
    to_status: string;
    version: number;
    actor: string;
    reason: string | null;
    data: unknown;
  }>
> {
  const result = await database.pool.query(
    'SELECT from_status, to_status, version, actor, reason, data FROM purchase_events WHERE purchase_id = $1 ORDER BY id',
    [id],
  );
  return result.rows;
}

async function claimRow(id: string, owner: string) {
  const attempt = await transitions.claim(id, owner, 30_000);
  return attempt?.claimed ? attempt.row : null;
}

describe('claim', () => {
  it('starts a queued purchase: preparing, a new version and the audit event, in one statement', async () => {
    const id = await insertPurchase();
    const claimed = await transitions.claim(id, 'worker-a', 30_000);
    expect(claimed).toMatchObject({
      claimed: true,
      row: { id, status: 'preparing', version: 2, leaseOwner: 'worker-a' },
    });
    // Its step derives the wallet's keys: the claim brings the sealed secret along.
    expect(claimed).toMatchObject({
      sealedSecret: { keyId: 'k1', wrappedKey: Buffer.from('wrapped'), ciphertext: Buffer.from('sealed') },
    });
    expect(await events(id)).toEqual([
      {
        from_status: 'queued',
        to_status: 'preparing',
        version: 2,
        actor: 'worker-a',
        reason: 'preparing started',
        data: null,
      },
    ]);
  });

  it('claims a purchase under way without an event, and refuses a held one with the row as found', async () => {
    const id = await insertPurchase('confirming');
    const claimed = await transitions.claim(id, 'worker-a', 30_000);
    expect(claimed?.row).toMatchObject({ status: 'confirming', version: 2, leaseOwner: 'worker-a' });
    expect(claimed).toMatchObject({ claimed: true, sealedSecret: null });
    // Refused: the row as the claim found it, held by worker-a.
    expect(await transitions.claim(id, 'worker-b', 30_000)).toMatchObject({
      claimed: false,
      row: { id, version: 2, leaseOwner: 'worker-a' },
    });
    expect(await transitions.claim(randomUUID(), 'worker-b', 30_000)).toBeNull();
    expect(await events(id)).toEqual([]);
  });
});

describe('applyMany', () => {
  it('writes every held row with its own event and merges evidence into each row', async () => {
    const ids = [
      await insertPurchase('submitted', { batch: { index: 0 } }),
      await insertPurchase('submitted', { batch: { index: 1 } }),
    ];
    const held = await Promise.all(ids.map((id) => claimRow(id, `owner-${id}`)));
    const rows = await transitions.applyMany(
      held.map((row) => ({ id: row!.id, version: row!.version, owner: row!.leaseOwner! })),
      { status: 'confirming', nextRunAt: new Date('2030-01-01T00:00:00Z') },
      {
        release: true,
        fromStatus: 'submitted',
        event: { toStatus: 'confirming', reason: 'confirmed with Fragment', data: { n: 1 } },
        mergeEvidence: { confirm: { ok: true } },
      },
    );
    expect(rows.map((row) => row.id).sort()).toEqual([...ids].sort());
    for (const [index, id] of ids.entries()) {
      const row = rows.find((r) => r.id === id)!;
      expect(row).toMatchObject({
        status: 'confirming',
        version: 3,
        leaseOwner: null,
        leaseExpiresAt: null,
        nextRunAt: new Date('2030-01-01T00:00:00Z'),
      });
      expect(row.evidence).toEqual({ batch: { index }, confirm: { ok: true } });
      expect(await events(id)).toEqual([
        {
          from_status: 'submitted',
          to_status: 'confirming',
          version: 3,
          actor: `owner-${id}`,
          reason: 'confirmed with Fragment',
          data: { n: 1 },
        },
      ]);
    }
  });

  it("records each row's own event data when given per row", async () => {
    const ids = [await insertPurchase('confirming'), await insertPurchase('confirming')];
    const held = await Promise.all(ids.map((id) => claimRow(id, 'owner')));
    await transitions.applyMany(
      held.map((row) => ({ id: row!.id, version: row!.version, owner: 'owner' })),
      { status: 'completed', completedAt: new Date() },
      {
        release: true,
        fromStatus: 'confirming',
        event: { toStatus: 'completed', reason: 'delivered', dataPerRow: [{ seen: 'first' }, { seen: 'second' }] },
      },
    );
    expect((await events(ids[0]!))[0]!.data).toEqual({ seen: 'first' });
    expect((await events(ids[1]!))[0]!.data).toEqual({ seen: 'second' });
  });

  it('skips a row whose fence was lost and writes the others', async () => {
    const ids = [await insertPurchase('submitted'), await insertPurchase('submitted')];
    const held = await Promise.all(ids.map((id) => claimRow(id, 'owner')));
    const rows = await transitions.applyMany(
      [
        { id: held[0]!.id, version: held[0]!.version, owner: 'owner' },
        { id: held[1]!.id, version: held[1]!.version - 1, owner: 'owner' },
      ],
      { attempt: 4 },
      { fromStatus: 'submitted', event: { toStatus: 'submitted', reason: 'retry' } },
    );
    expect(rows.map((row) => row.id)).toEqual([ids[0]]);
    const untouched = await database.pool.query('SELECT attempt, version FROM purchases WHERE id = $1', [ids[1]]);
    expect(untouched.rows[0]).toEqual({ attempt: 0, version: 2 });
    expect(await events(ids[1]!)).toEqual([]);
  });

  it('destroys the wallet secrets of rows it ends', async () => {
    const ids = [await insertPurchase('confirming'), await insertPurchase('confirming')];
    const held = await Promise.all(ids.map((id) => claimRow(id, 'owner')));
    await transitions.applyMany(
      held.map((row) => ({ id: row!.id, version: row!.version, owner: 'owner' })),
      { status: 'failed', error: { code: 'NOT_EXECUTED' }, completedAt: new Date() },
      { release: true, fromStatus: 'confirming', event: { toStatus: 'failed', reason: 'expired' } },
    );
    const secrets = await database.pool.query(
      'SELECT ciphertext, wrapped_key, destroyed_at FROM wallet_secrets WHERE purchase_id = ANY($1)',
      [ids],
    );
    expect(secrets.rows).toHaveLength(2);
    for (const secret of secrets.rows)
      expect(secret).toMatchObject({ ciphertext: null, wrapped_key: null, destroyed_at: expect.any(Date) });
  });
});

describe('paid look-alikes', () => {
  it('lists and counts paid, not failed look-alikes of several orders, case-insensitively', async () => {
    const since = new Date(Date.now() - 60_000);
    const make = async (username: string, amount: number, paid: boolean, status = 'confirming') => {
      const id = await insertPurchase(status);
      await database.pool.query(
        'UPDATE purchases SET username = $2, amount = $3, transaction_hash = $4 WHERE id = $1',
        [id, username, amount, paid ? 'ab'.repeat(32) : null],
      );
    };
    await make('@Lookalike', 77, true);
    await make('@lookalike', 77, true, 'completed');
    await make('@lookalike', 77, false);
    await make('@lookalike', 77, true, 'failed');
    await make('@lookalike', 78, true);
    const orders = [
      { product: 'stars' as const, username: '@LOOKALIKE', amount: 77 },
      { product: 'stars' as const, username: '@lookalike', amount: 78 },
      { product: 'stars' as const, username: '@nobody', amount: 77 },
    ];
    const byKey = await paidLookalikes.since(orders, since);
    expect(orders.map((order) => byKey.get(lookalikeKey(order))?.length ?? 0)).toEqual([2, 1, 0]);
    expect(await Promise.all(orders.map((order) => paidLookalikes.windowFor(order, since, 60_000)))).toEqual([
      { since, count: 2 },
      { since, count: 1 },
      { since, count: 0 },
    ]);
    // Still waiting for Fragment, they may be delivered after a later time; once completed, not.
    const later = new Date(Date.now() + 60_000);
    expect((await paidLookalikes.windowFor(orders[0]!, later, 60_000)).count).toBe(2);
    await database.pool.query(`UPDATE purchases SET completed_at = now() WHERE lower(username) = '@lookalike'`);
    expect(await paidLookalikes.windowFor(orders[0]!, later, 60_000)).toEqual({ since: later, count: 0 });
  });

  it('opens the window back to an older look-alike still open at its start, until none is', async () => {
    const order = { product: 'stars' as const, username: '@older', amount: 79 };
    const since = new Date(Date.now() - 60_000);
    const make = async (createdAgoMs: number, completedAgoMs: number | null) => {
      const id = await insertPurchase(completedAgoMs === null ? 'confirming' : 'completed');
      await database.pool.query(
        `UPDATE purchases SET username = $2, amount = $3, transaction_hash = $4,
           created_at = now() - make_interval(secs => $5::float / 1000),
           completed_at = CASE WHEN $6::float IS NULL THEN NULL ELSE now() - make_interval(secs => $6::float / 1000) END
         WHERE id = $1`,
        [id, order.username, order.amount, 'cd'.repeat(32), createdAgoMs, completedAgoMs],
      );
    };
    await make(3 * 60_000, null); // still waiting for Fragment at `since`: the window opens at its creation
    await make(4 * 60_000, 10_000); // completed after `since`: its row may lie in the window
    await make(5.5 * 60_000, 2 * 60_000); // created before the new start (5 minutes ago), completed after it
    await make(9 * 60_000, 8 * 60_000); // completed before the final start: its row lies before the window
    await make(LOOKALIKE_OPEN_LOOKBACK_MS + 5 * 60_000, null); // older than the lookback
    const window = await paidLookalikes.windowFor(order, since, 60_000);
    expect(window.count).toBe(3);
    // Opened at the 5.5-minute-old look-alike's creation less the skew: about 6.5 minutes ago.
    expect(Date.now() - window.since.getTime()).toBeGreaterThan(6.5 * 60_000 - 5_000);
    expect(Date.now() - window.since.getTime()).toBeLessThan(6.5 * 60_000 + 5_000);
    const lookalikes = (await paidLookalikes.since([order], since)).get(lookalikeKey(order)) ?? [];
    expect(lookalikes).toHaveLength(4);
  });

  it('an earlier look-alike delivered before a newer order was created but completed after: its row is counted too', () => {
    // chaos:ci of 2026-11-26: L created 11:09:19.9, delivered 11:09:30.9, completed 11:09:57.1; this
    // order created 11:10:36.4 (window 11:09:36.4); L' created 11:10:58.0.
    const at = (time: string) => new Date(`2026-11-26T${time}Z`);
    const lookalikes = [
      { createdAt: at('11:09:19.9'), completedAt: at('11:09:57.1') },
      { createdAt: at('11:10:36.4'), completedAt: null },
      { createdAt: at('11:10:58.0'), completedAt: at('11:11:23.2') },
    ];
    const window = lookalikeWindow(lookalikes, at('11:09:36.4'), 60_000);
    // The window opens at L's creation less the skew, where L's row (11:09:30.9) lies: 3 rows for 3 orders.
    expect(window).toEqual({ since: at('11:08:19.9'), count: 3 });
    // Without L open at the start (completed before it), the window and count stay.
    expect(lookalikeWindow([lookalikes[1]!, lookalikes[2]!], at('11:09:36.4'), 60_000)).toEqual({
      since: at('11:09:36.4'),
      count: 2,
    });
  });
});

describe('parked rows (a shared look wakes them)', () => {
  async function park(status: string, paid: boolean, dueInMs: number): Promise<{ id: string; version: number }> {
    const id = await insertPurchase(status);
    const { rows } = await database.pool.query<{ version: number }>(
      `UPDATE purchases SET transaction_hash = $2, payment_request = $3, next_run_at = now() + $4::int * interval '1 millisecond'
       WHERE id = $1 RETURNING version`,
      [id, paid ? 'ab'.repeat(32) : null, JSON.stringify({ fragmentSession: 'session-1' }), dueInMs],
    );
    return { id, version: rows[0]!.version };
  }

  it('lists the paid, unheld confirming rows with their Fragment session, read only', async () => {
    const parked = await park('confirming', true, 600_000);
    const unpaid = await park('confirming', false, 600_000);
    const held = await park('confirming', true, 600_000);
    await database.pool.query(
      "UPDATE purchases SET lease_owner = 'someone', lease_expires_at = now() + interval '1 minute' WHERE id = $1",
      [held.id],
    );
    const listed = await parkedPurchases.awaitingDelivery(1_000);
    expect(listed).toContainEqual({ id: parked.id, version: parked.version, fragmentSession: 'session-1' });
    expect(listed.map((row) => row.id)).not.toContain(unpaid.id);
    expect(listed.map((row) => row.id)).not.toContain(held.id);
    expect((await transitions.findMany([parked.id]))[0]!.version).toBe(parked.version);
  });

  it('lists the unheld confirming rows parked for their landing with their wallet and valid_until, read only', async () => {
    async function broadcast(marked: boolean, paid: boolean): Promise<{ id: string; version: number }> {
      const row = await park('confirming', paid, 600_000);
      await database.pool.query(
        `UPDATE purchases SET wallet_address = 'wallet-1', normalized_hash = $2, valid_until = 1900000000,
         evidence = $3 WHERE id = $1`,
        [row.id, 'cd'.repeat(32), JSON.stringify(marked ? { landing_wait: { parked_at: 'now' } } : {})],
      );
      return row;
    }
    const parked = await broadcast(true, false);
    const unmarked = await broadcast(false, false);
    const paid = await broadcast(true, true);
    const listed = await parkedPurchases.awaitingLanding(1_000);
    expect(listed).toContainEqual({
      id: parked.id,
      version: parked.version,
      walletAddress: 'wallet-1',
      validUntil: 1900000000,
    });
    expect(listed.map((row) => row.id)).not.toContain(unmarked.id);
    expect(listed.map((row) => row.id)).not.toContain(paid.id);
    expect((await transitions.findMany([parked.id]))[0]!.version).toBe(parked.version);
  });

  it('claims a parked row before it is due, fenced on the version listed and its status', async () => {
    const parked = await park('confirming', true, 600_000);
    const moved = await park('confirming', true, 600_000);
    const other = await park('submitted', true, 600_000);
    const claimed = await parkedPurchases.claim(
      [parked, { id: moved.id, version: moved.version - 1 }, other],
      'confirming',
      'watch-a',
      30_000,
    );
    expect(claimed.map((row) => [row.id, row.version, row.leaseOwner])).toEqual([
      [parked.id, parked.version + 1, 'watch-a'],
    ]);
    // Held now: a second look's claim finds nothing.
    expect(await parkedPurchases.claim([parked], 'confirming', 'watch-b', 30_000)).toEqual([]);
    expect(
      await parkedPurchases.claim([{ ...parked, version: parked.version + 1 }], 'confirming', 'watch-b', 30_000),
    ).toEqual([]);
  });
});
