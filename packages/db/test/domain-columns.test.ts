/**
 * A purchase's status, mode, product and payment method are decoded where the row is read (the
 * columns' decoders in schema/domain-columns.ts), so a value this release does not know (written
 * by a newer one) fails the read loudly rather than flowing on as a cast string.
 */
import { randomUUID } from 'node:crypto';
import { AdminPurchaseReads, PayerReservations, PurchaseRepository, UnknownColumnValueError } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function insertRow(columns: { status?: string; mode?: string; product?: string; payment_method?: string }) {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id,
       status, mode, product, username, amount, payment_method, seed_format, wallet_address)
     VALUES ($1::uuid, $1::text, 'payer', 'fingerprint', 't1', $2, $3, $4, '@alice', 50, $5, 'base64_key', $6)`,
    [
      id,
      columns.status ?? 'queued',
      columns.mode ?? 'server_signed',
      columns.product ?? 'stars',
      columns.payment_method ?? 'gram',
      `0:${id.replace(/-/g, '').padEnd(64, '0')}`,
    ],
  );
  return id;
}

describe('purchase columns decoded at the database boundary', () => {
  it('reads known values typed, through raw and typed selects', async () => {
    const id = await insertRow({ product: 'premium', payment_method: 'usdt', status: 'preparing' });
    const raw = await new PurchaseRepository(database.db).findById(id);
    expect(raw).toMatchObject({
      status: 'preparing',
      mode: 'server_signed',
      product: 'premium',
      paymentMethod: 'usdt',
    });
    expect(await new AdminPurchaseReads(database.db).find(id)).toMatchObject({
      product: 'premium',
      status: 'preparing',
    });
  });

  it.each([
    ['status', 'no_such_status', 'purchases_status_check'],
    ['mode', 'no_such_mode', 'purchases_mode_check'],
    ['product', 'no_such_product', 'purchases_product_check'],
    ['payment_method', 'no_such_method', 'purchases_payment_method_check'],
  ] as const)('fails a read of an unknown %s (as a newer release would write it)', async (column, value, check) => {
    // The check constraint refuses it today; a newer release's migration would widen it.
    await database.pool.query(`ALTER TABLE purchases DROP CONSTRAINT IF EXISTS ${check}`);
    const id = await insertRow({ [column]: value });
    const raw = new PurchaseRepository(database.db).findById(id);
    await expect(raw).rejects.toThrow(UnknownColumnValueError);
    await expect(raw).rejects.toThrow(`purchases.${column} holds "${value}"`);
    await expect(new AdminPurchaseReads(database.db).find(id)).rejects.toThrow(UnknownColumnValueError);
    await database.pool.query('DELETE FROM purchases WHERE id = $1', [id]);
  });

  it('decodes the payer reservations read (raw SQL) the same way', async () => {
    await database.pool.query('ALTER TABLE purchases DROP CONSTRAINT IF EXISTS purchases_product_check');
    const first = await insertRow({});
    const wallet = (
      await database.pool.query<{ wallet_address: string }>('SELECT wallet_address FROM purchases WHERE id = $1', [
        first,
      ])
    ).rows[0]!.wallet_address;
    const reading = randomUUID();
    await database.pool.query(
      `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id,
         status, product, username, amount, payment_method, seed_format, wallet_address, created_at)
       VALUES ($1::uuid, $1::text, 'payer', 'fingerprint', 't1', 'queued', 'stars', '@alice', 50, 'gram', 'base64_key', $2, now() + interval '1 minute')`,
      [reading, wallet],
    );
    const reservations = new PayerReservations(database.db);
    expect(await reservations.openOrders({ walletAddress: wallet, publicKey: null, id: reading })).toEqual([
      expect.objectContaining({ id: first, product: 'stars', paymentMethod: 'gram' }),
    ]);
    await database.pool.query(`UPDATE purchases SET product = 'no_such_product' WHERE id = $1`, [first]);
    await expect(reservations.openOrders({ walletAddress: wallet, publicKey: null, id: reading })).rejects.toThrow(
      UnknownColumnValueError,
    );
  });
});
