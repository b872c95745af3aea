/**
 * The wallet sender's statements on real PostgreSQL: claiming a batch's extra members with their
 * secrets, entering the wallet's sender or parking behind it (without ever losing a wake-up), and
 * persisting a signed external for all its members at once or not at all.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { LeaseRepository, type HeldLease } from '../src/repositories/lease-repository';
import { PurchaseTransitions, type Fence } from '../src/repositories/purchase-transitions';
import { SignedBatches } from '../src/repositories/signed-batches';
import { createTestDatabase, type TestDatabase } from '../src/testing';

// Each test pays from a wallet of its own.
let WALLET: string;
let LEASE: string;

let database: TestDatabase;
let transitions: PurchaseTransitions;
let signedBatches: SignedBatches;
let leases: LeaseRepository;

beforeAll(async () => {
  database = await createTestDatabase();
  transitions = new PurchaseTransitions(database.db);
  signedBatches = new SignedBatches(database.db);
  leases = new LeaseRepository(database.db);
});
afterAll(() => database.drop());
beforeEach(() => {
  WALLET = `0:${randomBytes(32).toString('hex')}`;
  LEASE = `wallet:${WALLET}`;
});

/** A purchase of WALLET that finished preparing (payment request stored), unheld and due. */
async function readyPurchase(createdAt: Date): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id, status, product, username, amount, payment_method, seed_format,
                            wallet_address, wallet_version, payment_request, created_at)
     VALUES ($1, $2, 'payer', 'f', 'k', 'preparing', 'stars', '@alice', 50, 'gram', 'base64_key', $3, 'V5R1', '{"ref":"r"}', $4)`,
    [id, `key-${id}`, WALLET, createdAt],
  );
  await database.pool.query(
    "INSERT INTO wallet_secrets (purchase_id, key_id, wrapped_key, ciphertext) VALUES ($1, 'k1', 'wrapped', $2)",
    [id, `sealed-${id}`],
  );
  return id;
}

async function hold(id: string, owner: string): Promise<Fence> {
  const attempt = await transitions.claim(id, owner, 30_000);
  if (!attempt?.claimed) throw new Error(`could not claim ${id}`);
  return { id, version: attempt.row.version, owner };
}

async function count(sql: string, values: unknown[]): Promise<number> {
  return Number((await database.pool.query<{ n: string }>(sql, values)).rows[0]!.n);
}

describe('claimReadyToSend', () => {
  it("claims the wallet's oldest unheld ready purchases but the sender's own, with their sealed secrets", async () => {
    const base = Date.now() - 60_000;
    const [own, oldest, held, newer, newest] = [
      await readyPurchase(new Date(base)),
      await readyPurchase(new Date(base + 1)),
      await readyPurchase(new Date(base + 2)),
      await readyPurchase(new Date(base + 3)),
      await readyPurchase(new Date(base + 4)),
    ];
    await hold(held, 'someone-else');
    const claimed = await signedBatches.claimReadyToSend(WALLET, own, 2, 'sender', 30_000);
    expect(claimed.map((c) => c.row.id)).toEqual([oldest, newer]);
    for (const c of claimed) {
      expect(c.row).toMatchObject({ leaseOwner: 'sender', version: 2 });
      expect(c.sealedSecret).toEqual({
        keyId: 'k1',
        wrappedKey: Buffer.from('wrapped'),
        ciphertext: Buffer.from(`sealed-${c.row.id}`),
      });
    }
    expect((await signedBatches.claimReadyToSend(WALLET, own, 5, 'sender-2', 30_000)).map((c) => c.row.id)).toEqual([
      newest,
    ]);
  });
});

describe('enterWalletSender', () => {
  const accepted = { fragmentReqId: 'req-1', attempt: 0 };
  const event = { toStatus: 'preparing', reason: 'payment request accepted; waiting for the wallet sender' };

  function enter(fence: Fence, owner = `batch:${randomUUID()}`) {
    return transitions.enterWalletSender(
      fence,
      accepted,
      { fromStatus: 'preparing', event },
      { name: LEASE, owner, ttlMs: 30_000 },
      new Date('2030-01-01T00:00:00Z'),
    );
  }

  it('takes a free wallet and keeps the purchase held, with its changes and event, in one statement', async () => {
    const fence = await hold(await readyPurchase(new Date()), 'job');
    const entered = await enter(fence, 'batch:first');
    expect(entered.walletLease).toEqual({ name: LEASE, owner: 'batch:first', fence: 1 });
    expect(entered.row).toMatchObject({ leaseOwner: 'job', version: fence.version + 1, fragmentReqId: 'req-1' });
    expect(entered.row!.nextRunAt.getTime()).toBeLessThan(Date.now() + 1_000);
    expect(
      await count('SELECT count(*) AS n FROM purchase_events WHERE purchase_id = $1 AND reason = $2', [
        fence.id,
        event.reason,
      ]),
    ).toBe(1);
  });

  it('parks behind a busy wallet: released, due at the fallback time, its changes stored', async () => {
    await leases.acquire(LEASE, 'batch:sending', 30_000);
    const fence = await hold(await readyPurchase(new Date()), 'job');
    const entered = await enter(fence);
    expect(entered.walletLease).toBeNull();
    expect(entered.row).toMatchObject({
      leaseOwner: null,
      leaseExpiresAt: null,
      nextRunAt: new Date('2030-01-01T00:00:00Z'),
      fragmentReqId: 'req-1',
    });
    expect(
      await count('SELECT count(*) AS n FROM leases WHERE name = $1 AND owner = $2', [LEASE, 'batch:sending']),
    ).toBe(1);
  });

  it('waits for a release in progress, then takes the wallet: the freed wallet cannot be missed', async () => {
    const lease = (await leases.acquire(LEASE, 'batch:sending', 30_000))!;
    const fence = await hold(await readyPurchase(new Date()), 'job');
    const releaser = await database.pool.connect();
    try {
      await releaser.query('BEGIN');
      await releaser.query(
        "UPDATE leases SET expires_at = now() - interval '1 millisecond' WHERE name = $1 AND owner = $2",
        [LEASE, lease.owner],
      );
      let settled = false;
      const entering = enter(fence, 'batch:next').finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(settled).toBe(false);
      await releaser.query('COMMIT');
      expect((await entering).walletLease).toEqual({ name: LEASE, owner: 'batch:next', fence: 2 });
    } finally {
      releaser.release();
    }
  });

  it('holds off a release until the park commits, so the wake-up sent after it finds the parked row', async () => {
    await leases.acquire(LEASE, 'batch:sending', 30_000);
    const fence = await hold(await readyPurchase(new Date()), 'job');
    const parker = await database.pool.connect();
    try {
      // The park's statement inside an open transaction: its lock on the lease row is kept.
      await parker.query('BEGIN');
      const parkerTransitions = new PurchaseTransitions(Object.assign(Object.create(database.db), { $client: parker }));
      expect(
        (
          await parkerTransitions.enterWalletSender(
            fence,
            {},
            { fromStatus: 'preparing' },
            { name: LEASE, owner: 'batch:x', ttlMs: 30_000 },
            new Date(),
          )
        ).walletLease,
      ).toBeNull();
      let released = false;
      const releasing = leases.releaseOwnedBy(LEASE, 'batch:sending').then(() => (released = true));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(released).toBe(false);
      await parker.query('COMMIT');
      await releasing;
      expect(await signedBatches.wakeNextToSend(WALLET)).toMatchObject({ id: fence.id });
    } finally {
      parker.release();
    }
  });

  it("reports a wallet lease it took although the purchase's fence was lost", async () => {
    const fence = await hold(await readyPurchase(new Date()), 'job');
    const entered = await enter({ ...fence, version: fence.version - 1 }, 'batch:orphan');
    expect(entered).toEqual({ row: null, walletLease: { name: LEASE, owner: 'batch:orphan', fence: 1 } });
  });
});

describe('persistSignedBatch', () => {
  async function senderWithMembers(size: number): Promise<{ lease: HeldLease; fences: Fence[] }> {
    const lease = (await leases.acquire(LEASE, `batch:${randomUUID()}`, 30_000))!;
    const fences: Fence[] = [];
    for (let i = 0; i < size; i += 1) fences.push(await hold(await readyPurchase(new Date()), 'sender'));
    return { lease, fences };
  }

  function persist(lease: HeldLease, fences: Fence[], batchId = randomUUID()) {
    return signedBatches.persist(
      {
        batchId,
        walletAddress: WALLET,
        boc: 'te6cc-boc',
        normalizedHash: 'cd'.repeat(32),
        seqno: 7,
        validUntil: 2_000_000_000,
        messageCount: fences.length,
      },
      fences.map((fence, index) => ({
        fence,
        fromStatus: 'preparing',
        evidence: { batch: { index } },
        eventData: { batch_index: index },
      })),
      { stepStartedAt: new Date(), reason: 'signed; persisted before broadcast' },
      lease,
      Date.now() + 600_000,
    );
  }

  it('stores the external once, moves every member to sending pointing at it and extends the wallet lease', async () => {
    const { lease, fences } = await senderWithMembers(3);
    const batchId = randomUUID();
    const rows = await persist(lease, fences, batchId);
    expect(rows?.map((row) => row.id)).toEqual(fences.map((f) => f.id));
    for (const [index, row] of rows!.entries())
      expect(row).toMatchObject({
        status: 'sending',
        batchId,
        seqno: 7,
        validUntil: 2_000_000_000,
        evidence: { batch: { index } },
      });
    expect(
      await count('SELECT count(*) AS n FROM signed_externals WHERE batch_id = $1 AND message_count = 3', [batchId]),
    ).toBe(1);
    expect(
      await count("SELECT count(*) AS n FROM purchase_events WHERE purchase_id = ANY($1) AND to_status = 'sending'", [
        fences.map((f) => f.id),
      ]),
    ).toBe(3);
    expect(
      await count("SELECT count(*) AS n FROM leases WHERE name = $1 AND expires_at > now() + interval '500 seconds'", [
        LEASE,
      ]),
    ).toBe(1);
  });

  it('stores nothing when one member was claimed away, nor when the wallet lease was lost', async () => {
    const { lease, fences } = await senderWithMembers(3);
    const batchIds = [randomUUID(), randomUUID()];
    await database.pool.query(
      "UPDATE purchases SET lease_owner = 'another-worker', version = version + 1 WHERE id = $1",
      [fences[1]!.id],
    );
    expect(await persist(lease, fences, batchIds[0])).toBeNull();
    await leases.release(lease);

    const second = await senderWithMembers(2);
    await database.pool.query("UPDATE leases SET owner = 'batch:other', fence = fence + 1 WHERE name = $1", [LEASE]);
    expect(await persist(second.lease, second.fences, batchIds[1])).toBeNull();

    const ids = [...fences, ...second.fences].map((f) => f.id);
    expect(await count('SELECT count(*) AS n FROM signed_externals WHERE batch_id = ANY($1)', [batchIds])).toBe(0);
    expect(
      await count(
        "SELECT count(*) AS n FROM purchases WHERE id = ANY($1) AND (status <> 'preparing' OR batch_id IS NOT NULL)",
        [ids],
      ),
    ).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM purchase_events WHERE purchase_id = ANY($1) AND to_status = 'sending'", [
        ids,
      ]),
    ).toBe(0);
    expect(
      await count("SELECT count(*) AS n FROM leases WHERE name = $1 AND expires_at > now() + interval '60 seconds'", [
        LEASE,
      ]),
    ).toBe(0);
  });
});
