import request from 'supertest';
import { createTestGateway, starsOrder, type TestGateway, BIP39_INDEX0_V5R1 } from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000' });
});
afterAll(() => gateway.close());

async function post(body: unknown) {
  return request(gateway.app)
    .post('/api/v1/purchases')
    .send(body as object);
}

async function countRows(): Promise<number> {
  const result = await gateway.database.pool.query('SELECT count(*)::int AS n FROM purchases');
  return result.rows[0].n as number;
}

describe('POST /api/v1/purchases field rules', () => {
  it.each([
    ['stars', 49, 400],
    ['stars', 50, 202],
    ['stars', 1_000_000, 202],
    ['stars', 1_000_001, 400],
    ['premium', 2, 400],
    ['premium', 3, 202],
    ['premium', 6, 202],
    ['premium', 12, 202],
    ['premium', 13, 400],
  ])('%s amount %d → %d', async (product, amount, status) => {
    const response = await post(starsOrder({ product, amount }));
    expect(response.status).toBe(status);
    if (status === 400) {
      expect(response.body.code).toBe('INVALID_AMOUNT');
      expect(response.body.details).toEqual([expect.objectContaining({ field: 'amount' })]);
    } else {
      expect(response.body.status).toBe('queued');
    }
  });

  it('rejects a fractional or string amount', async () => {
    for (const amount of [50.5, '50']) {
      const response = await post(starsOrder({ amount }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_AMOUNT');
      expect(response.body.details[0]).toMatchObject({ field: 'amount', message: 'must be an integer' });
    }
  });

  it.each([
    ['', 400],
    ['@', 400],
    ['@a', 202],
    [`@${'a'.repeat(32)}`, 202],
    [`@${'a'.repeat(33)}`, 400],
    ['alice', 400],
    ['@al ice', 400],
    ['@al-ice', 400],
    ['@alïce', 400],
    ['@Al_1ce', 202],
  ])('username %j → %d', async (username, status) => {
    const response = await post(starsOrder({ username }));
    expect(response.status).toBe(status);
    if (status === 400) {
      expect(response.body.code).toBe('VALIDATION_FAILED');
      expect(response.body.details).toEqual([{ field: 'username', message: 'has an invalid format' }]);
    }
  });

  it.each([
    ['', 400],
    ['k', 202],
    ['k'.repeat(128), 202],
    ['k'.repeat(129), 400],
    ['key\u0007bell', 400],
    ['key\ttab', 400],
    ['ключ', 400],
    ['~ !"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}', 202],
  ])('idempotency_key %j → %d', async (key, status) => {
    const response = await post(starsOrder({ idempotency_key: key }));
    expect(response.status).toBe(status);
    if (status === 400) expect(response.body.details[0].field).toBe('idempotency_key');
  });

  it.each([
    [-1, 400],
    [0, 202],
    [100, 202],
    [101, 400],
    [1.5, 400],
    ['1', 400],
  ])('account_index %j → %d', async (accountIndex, status) => {
    const response = await post(starsOrder({ account_index: accountIndex }));
    expect(response.status).toBe(status);
    if (status === 400) {
      expect(response.body.code).toBe('INVALID_ACCOUNT_INDEX');
      expect(response.body.details[0].field).toBe('account_index');
    }
  });

  it('normalises payment method aliases before storing', async () => {
    const cases: Array<[string, string]> = [
      ['ton', 'gram'],
      ['gram', 'gram'],
      ['usdt_ton', 'usdt'],
      ['usdt_gram', 'usdt'],
      ['usdt', 'usdt'],
    ];
    for (const [alias, stored] of cases) {
      const response = await post(starsOrder({ payment_method: alias }));
      expect(response.status).toBe(202);
      const read = await request(gateway.app).get(response.body.status_url);
      expect(read.body.payment_method).toBe(stored);
    }
    const bad = await post(starsOrder({ payment_method: 'btc' }));
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('payment_method');
  });

  it('names every missing field', async () => {
    const response = await post({});
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_FAILED');
    expect(response.body.details.map((detail: { field: string }) => detail.field).sort()).toEqual(
      ['amount', 'idempotency_key', 'payment_method', 'product', 'seed', 'username'].sort(),
    );
  });

  it('rejects an unknown field by name instead of ignoring it', async () => {
    const before = await countRows();
    const response = await post(starsOrder({ acount_index: 1 }));
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('UNKNOWN_FIELD');
    expect(response.body.details).toEqual([{ field: 'acount_index', message: 'is not a known field' }]);
    expect(await countRows()).toBe(before);
  });

  describe('wallet checks at intake', () => {
    it('needs a selection for a 12-word seed', async () => {
      const response = await post(starsOrder({ account_index: undefined }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('WALLET_SELECTION_REQUIRED');
      expect(response.body.action).toBe('Add wallet_address or account_index.');
    });

    it('rejects a 12-word seed with a bad checksum', async () => {
      const seed = 'cook voyage document eight skate token alien guide drink uncle term term';
      const response = await post(starsOrder({ seed }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_BIP39_SEED');
      expect(response.body.details[0].field).toBe('seed');
    });

    it.each([
      ['seven words', 'one two three four five six seven'],
      ['lenient base64', Buffer.alloc(32, 7).toString('base64').replace('=', '')],
      ['33-byte key', Buffer.alloc(33, 7).toString('base64')],
      ['hex', 'ab'.repeat(32)],
    ])('rejects an unsupported seed shape: %s', async (_label, seed) => {
      const response = await post(starsOrder({ seed }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('UNSUPPORTED_WALLET_SEED_FORMAT');
    });

    it('rejects an invalid address', async () => {
      const response = await post(starsOrder({ wallet_address: 'UQnot-an-address' }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('INVALID_WALLET_ADDRESS');
      expect(response.body.details[0].field).toBe('wallet_address');
    });

    it('finds the account of a 12-word seed by its address and stores it', async () => {
      const response = await post(starsOrder({ account_index: undefined, wallet_address: BIP39_INDEX0_V5R1 }));
      expect(response.status).toBe(202);
      const row = await gateway.database.pool.query(
        'SELECT account_index, wallet_address, wallet_version, seed_format FROM purchases WHERE id = $1',
        [response.body.purchase_id],
      );
      expect(row.rows[0]).toEqual({
        account_index: 0,
        wallet_address: '0:12a267d67f657b378e90ad6e2e99fa4045007028e469ff3e88ffcbb68d41b6f5',
        wallet_version: 'V5R1',
        seed_format: 'bip39_12',
      });
    });

    it('refuses a 12-word address/index pair that disagrees, storing nothing', async () => {
      const before = await countRows();
      const response = await post(starsOrder({ account_index: 1, wallet_address: BIP39_INDEX0_V5R1 }));
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('WALLET_ADDRESS_MISMATCH');
      expect(await countRows()).toBe(before);
    });

    it('refuses an address that no index 0..100 of the seed has', async () => {
      const response = await post(
        starsOrder({ account_index: undefined, wallet_address: 'UQADGkHaOHfStKdqJEwB916xGjQsSP25XahcJWomf-7pRELD' }),
      );
      expect(response.status).toBe(400);
      expect(response.body.code).toBe('WALLET_INDEX_NOT_FOUND');
    });

    it('accepts a canonical Base64 key', async () => {
      const response = await post(
        starsOrder({ seed: Buffer.alloc(32, 9).toString('base64'), account_index: undefined }),
      );
      expect(response.status).toBe(202);
    });
  });
});
