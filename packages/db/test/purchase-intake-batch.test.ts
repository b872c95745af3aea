import { randomBytes, randomUUID } from 'node:crypto';
import { PurchaseRepository, PurchaseRowRejectedError, type IntakeOutcome, type PurchaseIntake } from '../src';
import { SecretVault } from '../src/secrets/secret-vault';
import { parseKeyRing } from '../src/secrets/key-ring';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
let purchases: PurchaseRepository;
const vault = new SecretVault(parseKeyRing(`t1:${randomBytes(32).toString('base64')}`));
beforeAll(async () => {
  database = await createTestDatabase();
  purchases = new PurchaseRepository(database.db);
});
afterAll(() => database.drop());

function intake(key: string, change: Partial<PurchaseIntake['row']> = {}): PurchaseIntake {
  return {
    row: {
      id: randomUUID(),
      idempotencyKey: key,
      idempotencyScope: 'payer-a',
      requestFingerprint: `fingerprint-${key}`,
      fingerprintKeyId: 't1',
      status: 'queued',
      product: 'stars',
      username: '@alice',
      amount: 50,
      orderLine: { product: 'stars', recipient: '@alice', quantities: { stars: 50 } },
      paymentMethod: 'gram',
      seedFormat: 'base64_key',
      ...change,
    },
    buildSecret: (purchaseId) => vault.seal(purchaseId, `secret of ${key}`),
    event: {
      fromStatus: null,
      toStatus: 'queued',
      actor: 'gateway',
      reason: 'purchase accepted',
      requestId: `request-${key}`,
    },
  };
}

function created(outcome: IntakeOutcome | undefined) {
  if (!outcome?.ok)
    throw new Error(`expected a stored purchase, got ${String(outcome?.ok === false ? outcome.error : outcome)}`);
  return outcome.value;
}

async function count(sql: string, keys: string[]): Promise<number> {
  const result = await database.pool.query(sql, [keys]);
  return result.rows[0].n as number;
}

const PURCHASES = 'SELECT count(*)::int AS n FROM purchases WHERE idempotency_key = ANY($1)';
const EVENTS =
  'SELECT count(*)::int AS n FROM purchase_events e JOIN purchases p ON p.id = e.purchase_id WHERE p.idempotency_key = ANY($1)';
const SECRETS =
  'SELECT count(*)::int AS n FROM wallet_secrets s JOIN purchases p ON p.id = s.purchase_id WHERE p.idempotency_key = ANY($1)';

describe('insertManyOrGetByKey (group commit)', () => {
  it('stores every purchase of a batch with its event and its sealed secret', async () => {
    const keys = Array.from({ length: 25 }, (_, index) => `batch-${index}-${randomUUID()}`);
    const outcomes = await purchases.insertManyOrGetByKey(keys.map((key) => intake(key)));
    expect(outcomes.map((outcome) => created(outcome).created)).toEqual(keys.map(() => true));
    expect(outcomes.map((outcome) => created(outcome).purchase.idempotencyKey)).toEqual(keys);
    expect(await count(PURCHASES, keys)).toBe(25);
    expect(await count(EVENTS, keys)).toBe(25);
    expect(await count(SECRETS, keys)).toBe(25);

    const stored = await database.pool.query(
      'SELECT purchase_id, key_id, wrapped_key, ciphertext FROM wallet_secrets s JOIN purchases p ON p.id = s.purchase_id WHERE p.idempotency_key = $1',
      [keys[3]],
    );
    const row = stored.rows[0];
    const secret = vault.open(row.purchase_id, {
      keyId: row.key_id,
      wrappedKey: row.wrapped_key,
      ciphertext: row.ciphertext,
    });
    expect(secret.toString('utf8')).toBe(`secret of ${keys[3]}`);
  });

  it('makes one purchase for one key used twice inside a batch, and finds keys stored before', async () => {
    const earlier = `earlier-${randomUUID()}`;
    created((await purchases.insertManyOrGetByKey([intake(earlier)]))[0]);
    const twice = `twice-${randomUUID()}`;
    const fresh = `fresh-${randomUUID()}`;
    const outcomes = await purchases.insertManyOrGetByKey([
      intake(twice),
      intake(earlier),
      intake(twice, { amount: 77 }),
      intake(fresh),
    ]);
    const [first, again, second, other] = outcomes.map(created);
    expect(first?.created).toBe(true);
    expect(second?.created).toBe(false);
    // The second request gets the first one's row: its fingerprint comparison decides replay or 409.
    expect(second?.purchase.id).toBe(first?.purchase.id);
    expect(second?.purchase.requestFingerprint).toBe(first?.purchase.requestFingerprint);
    const stored = await database.pool.query('SELECT amount FROM purchases WHERE id = $1', [first?.purchase.id]);
    expect(stored.rows[0].amount).toBe(50);
    expect(again?.created).toBe(false);
    expect(again?.purchase.idempotencyKey).toBe(earlier);
    expect(other?.created).toBe(true);
    expect(await count(PURCHASES, [twice, earlier, fresh])).toBe(3);
    expect(await count(EVENTS, [twice, earlier, fresh])).toBe(3);
  });

  it('scopes keys to the payer: one key of two payers makes two purchases, a stored key is found in its own scope only', async () => {
    const shared = `shared-${randomUUID()}`;
    const earlier = `earlier-${randomUUID()}`;
    const stored = created((await purchases.insertManyOrGetByKey([intake(earlier)]))[0]).purchase;
    const outcomes = (
      await purchases.insertManyOrGetByKey([
        intake(shared),
        intake(shared, { idempotencyScope: 'payer-b' }),
        intake(earlier, { idempotencyScope: 'payer-b' }),
        intake(earlier),
      ])
    ).map(created);
    expect(outcomes.map((outcome) => [outcome.created, outcome.purchase.idempotencyScope])).toEqual([
      [true, 'payer-a'],
      [true, 'payer-b'],
      [true, 'payer-b'],
      [false, 'payer-a'],
    ]);
    expect(outcomes[0]?.purchase.id).not.toBe(outcomes[1]?.purchase.id);
    expect(outcomes[2]?.purchase.id).not.toBe(stored.id);
    expect(outcomes[3]?.purchase.id).toBe(stored.id);
    expect(await count(PURCHASES, [shared, earlier])).toBe(4);
    expect((await purchases.findByIdempotencyKey('payer-a', earlier))?.id).toBe(stored.id);
    expect((await purchases.findByIdempotencyKey('payer-c', earlier))?.id).toBeUndefined();
  });

  it('a row PostgreSQL refuses fails alone, as a rejection of its values', async () => {
    const good = [`good-a-${randomUUID()}`, `good-b-${randomUUID()}`];
    const bad = `bad-${randomUUID()}`;
    const outcomes = await purchases.insertManyOrGetByKey([
      intake(good[0]!),
      intake(bad, { product: 'no-such-product' }),
      intake(good[1]!),
    ]);
    expect(created(outcomes[0]).created).toBe(true);
    expect(created(outcomes[2]).created).toBe(true);
    expect(outcomes[1]?.ok).toBe(false);
    expect(outcomes[1]?.ok === false && outcomes[1].error).toBeInstanceOf(PurchaseRowRejectedError);
    expect(await count(PURCHASES, good)).toBe(2);
    expect(await count(PURCHASES, [bad])).toBe(0);
    expect(await count(SECRETS, [bad])).toBe(0);
  });

  it('concurrent batches over the same keys in opposite orders store each key once', async () => {
    const keys = Array.from({ length: 10 }, (_, index) => `overlap-${index}-${randomUUID()}`);
    const [forward, backward] = await Promise.all([
      purchases.insertManyOrGetByKey(keys.map((key) => intake(key))),
      purchases.insertManyOrGetByKey([...keys].reverse().map((key) => intake(key))),
    ]);
    const all = [...(forward ?? []), ...(backward ?? [])].map(created);
    expect(all.filter((result) => result.created)).toHaveLength(10);
    for (const key of keys)
      expect(
        new Set(all.filter((result) => result.purchase.idempotencyKey === key).map((result) => result.purchase.id))
          .size,
      ).toBe(1);
    expect(await count(PURCHASES, keys)).toBe(10);
    expect(await count(EVENTS, keys)).toBe(10);
  });
});

describe('findViewsByIds', () => {
  it('reads many purchases in one statement and leaves unknown ids out', async () => {
    const keys = [`view-a-${randomUUID()}`, `view-b-${randomUUID()}`];
    const stored = (await purchases.insertManyOrGetByKey(keys.map((key) => intake(key)))).map(
      (outcome) => created(outcome).purchase,
    );
    const views = await purchases.findViewsByIds([stored[1]!.id, randomUUID(), stored[0]!.id]);
    expect(views.map((view) => view.id).sort()).toEqual(stored.map((row) => row.id).sort());
    const view = views.find((candidate) => candidate.id === stored[0]!.id);
    expect(view).toEqual({
      id: stored[0]!.id,
      mode: 'server_signed',
      status: 'queued',
      product: 'stars',
      username: '@alice',
      amount: 50,
      orderLine: { product: 'stars', recipient: '@alice', quantities: { stars: 50 } },
      paymentMethod: 'gram',
      transactionHash: null,
      error: null,
      createdAt: expect.any(Date) as Date,
      updatedAt: expect.any(Date) as Date,
    });
    const times = await database.pool.query('SELECT created_at, updated_at FROM purchases WHERE id = $1', [
      stored[0]!.id,
    ]);
    expect(view?.createdAt).toEqual(times.rows[0].created_at);
    expect(view?.updatedAt).toEqual(times.rows[0].updated_at);
  });
});
