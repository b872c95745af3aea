/**
 * The Premium giveaway at intake (`product: "premium_giveaway"`): `winners` and `months` instead
 * of `amount`, each held to its rule (INVALID_AMOUNT naming the field), `amount` refused as an
 * unknown field for it; stored with its order line, shown with `amount` = winners and
 * `quantities`, and fingerprinted over both quantities.
 */
import request from 'supertest';
import { createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => gateway.close());

function giveaway(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { amount: _amount, ...order } = starsOrder({
    product: 'premium_giveaway',
    username: '@starsgate_channel',
    winners: 10,
    months: 3,
    ...overrides,
  });
  return 'amount' in overrides ? { ...order, amount: overrides.amount } : order;
}

const post = (body: Record<string, unknown>) => request(gateway.app).post('/api/v1/purchases').send(body);

describe('POST /api/v1/purchases for a premium_giveaway', () => {
  it.each([
    [{ winners: 0 }, 'winners'],
    [{ winners: 24_001 }, 'winners'],
    [{ winners: 1.5 }, 'winners'],
    [{ months: 4 }, 'months'],
    [{ winners: undefined }, 'winners'],
    [{ months: undefined }, 'months'],
  ])('refuses %j: INVALID_AMOUNT naming %s', async (change, field) => {
    const response = await post(giveaway(change));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('INVALID_AMOUNT');
    expect(response.body.details.map((detail: { field: string }) => detail.field)).toEqual([field]);
  });

  it('refuses amount for a giveaway as an unknown field', async () => {
    const response = await post(giveaway({ amount: 10 }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('UNKNOWN_FIELD');
    expect(response.body.details).toEqual([{ field: 'amount', message: 'is not a known field' }]);
  });

  it('refuses winners on a Stars order as an unknown field', async () => {
    const response = await post(starsOrder({ winners: 10 }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('UNKNOWN_FIELD');
  });

  it('accepts 1 and 24,000 winners for 3, 6 or 12 months; reads back amount = winners and the quantities', async () => {
    for (const [winners, months] of [
      [1, 3],
      [24_000, 12],
      [7, 6],
    ] as const) {
      const response = await post(giveaway({ winners, months }));
      expect(response.status).toBe(202);
      const read = await request(gateway.app).get(`/api/v1/purchases/${response.body.purchase_id}`);
      expect(read.body).toMatchObject({
        product: 'premium_giveaway',
        username: '@starsgate_channel',
        amount: winners,
        quantities: { winners, months },
      });
      const row = await gateway.database.pool.query('SELECT order_line FROM purchases WHERE id = $1', [
        response.body.purchase_id,
      ]);
      expect(row.rows[0].order_line).toEqual({
        product: 'premium_giveaway',
        recipient: '@starsgate_channel',
        quantities: { winners, months },
      });
    }
  });

  it('replays the same giveaway under its key, and refuses the key for other months', async () => {
    const body = giveaway();
    const first = await post(body);
    expect(first.status).toBe(202);
    const again = await post(body);
    expect(again.status).toBe(202);
    expect(again.body.purchase_id).toBe(first.body.purchase_id);
    const otherMonths = await post({ ...body, months: 6 });
    expect(otherMonths.status).toBe(409);
    expect(otherMonths.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});
