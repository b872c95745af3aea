/**
 * GRAM top-up (`product: "gram"`) at the gateway, against the real Fragment simulator: its amount
 * rule, GRAM as its only payment method (usdt: 400 PAYMENT_METHOD_UNAVAILABLE, nothing stored),
 * availability through `searchAdsTopupRecipient` (users only) and quotes priced at the amount.
 */
import request from 'supertest';
import { BIP39_INDEX0_V5R1, starsOrder, uniqueKey, type TestGateway } from './support/test-gateway';
import { useFragmentGateways } from './support/fragment-sandbox';

const suite = useFragmentGateways({});
let gw: TestGateway;
beforeAll(async () => {
  gw = await suite.gateway();
});

const topup = (overrides: Record<string, unknown> = {}) => starsOrder({ product: 'gram', amount: 25, ...overrides });

async function countRows(): Promise<number> {
  const result = await gw.database.pool.query('SELECT count(*)::int AS n FROM purchases');
  return result.rows[0].n as number;
}

describe('purchases', () => {
  it.each([
    [0, 400],
    [1, 202],
    [1_000_000, 202],
    [1_000_001, 400],
  ])('amount %d → %d', async (amount, status) => {
    const res = await request(gw.app).post('/api/v1/purchases').send(topup({ amount }));
    expect(res.status).toBe(status);
    if (status === 400) {
      expect(res.body.code).toBe('INVALID_AMOUNT');
      expect(res.body.details).toEqual([expect.objectContaining({ field: 'amount' })]);
    } else {
      expect(res.body.status).toBe('queued');
    }
  });

  it.each(['usdt', 'usdt_ton'])(
    'payment_method %s → 400 PAYMENT_METHOD_UNAVAILABLE with an action, nothing stored',
    async (method) => {
      const before = await countRows();
      const res = await request(gw.app)
        .post('/api/v1/purchases')
        .send(topup({ payment_method: method }));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'PAYMENT_METHOD_UNAVAILABLE',
        message: 'GRAM top-up is paid in GRAM only.',
        action: 'Use payment_method=gram.',
        details: [{ field: 'payment_method', message: 'GRAM top-up is paid in GRAM only.' }],
      });
      expect(await countRows()).toBe(before);
    },
  );

  it('a checkout in usdt is refused the same way', async () => {
    const before = await countRows();
    const res = await request(gw.app)
      .post('/api/v1/checkouts')
      .send({
        product: 'gram',
        username: '@alice',
        amount: 25,
        payment_method: 'usdt',
        payer_address: BIP39_INDEX0_V5R1,
        idempotency_key: uniqueKey('checkout'),
      });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'PAYMENT_METHOD_UNAVAILABLE', action: 'Use payment_method=gram.' });
    expect(await countRows()).toBe(before);
  });
});

describe('availability', () => {
  const check = (body: Record<string, unknown>) => request(gw.app).post('/api/v1/availability/check').send(body);
  const order = (overrides: Record<string, unknown> = {}) => ({
    product: 'gram',
    username: '@alice',
    amount: 25,
    payment_method: 'gram',
    ...overrides,
  });

  it.each([
    ['@alice', 'AVAILABLE'],
    ['@news_channel', 'RECIPIENT_INELIGIBLE'],
    ['@helper_bot', 'RECIPIENT_INELIGIBLE'],
  ])('%s → %s, asked through the top-up search', async (username, code) => {
    const searches = suite.fragment.calls('searchAdsTopupRecipient');
    const res = await check(order({ username }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ available: code === 'AVAILABLE', code, product: 'gram', username, amount: 25 });
    expect(suite.fragment.calls('searchAdsTopupRecipient')).toBe(searches + 1);
    if (code === 'RECIPIENT_INELIGIBLE')
      expect(res.body.message).toBe(
        `${username} cannot receive a GRAM top-up (a bot or a channel, not a personal account).`,
      );
  });

  it('opens the top-up page state (updateAdsTopupState {mode: "new"}) before its search', async () => {
    suite.fragment.configure({ faults: { topupSearchNeedsState: true } });
    try {
      const states = suite.fragment.calls('updateAdsTopupState');
      const res = await check(order({ username: '@bob' }));
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ available: true, code: 'AVAILABLE', username: '@bob' });
      expect(suite.fragment.calls('updateAdsTopupState')).toBe(states + 1);
    } finally {
      suite.fragment.configure({ faults: { topupSearchNeedsState: false } });
    }
  });

  it('usdt → PAYMENT_METHOD_UNAVAILABLE without asking Fragment', async () => {
    const searches = suite.fragment.calls('searchAdsTopupRecipient');
    const res = await check(order({ payment_method: 'usdt' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ available: false, code: 'PAYMENT_METHOD_UNAVAILABLE', payment_method: 'usdt' });
    expect(res.body.message).toBe('Paying for GRAM top-up in USDT is not available on this service.');
    expect(res.body.action).toMatch(/^Keep this payment method disabled; offer payment_method=gram/);
    expect(suite.fragment.calls('searchAdsTopupRecipient')).toBe(searches);
  });
});

describe('quotes', () => {
  it('the price is the amount in GRAM; USDT is its worth at the TON rate (1.70)', async () => {
    const res = await request(gw.app).get('/api/v1/prices/quote?product=gram&amount=25');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      product: 'gram',
      amount: 25,
      prices: { gram: '25', usdt: '42.5' },
      stale: false,
      derived: false,
    });
  });

  it('holds the amount rule', async () => {
    for (const amount of [0, 1_000_001]) {
      const res = await request(gw.app).get(`/api/v1/prices/quote?product=gram&amount=${amount}`);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_AMOUNT');
    }
  });
});
