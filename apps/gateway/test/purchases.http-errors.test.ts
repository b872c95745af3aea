import request from 'supertest';
import { createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway({ RATE_LIMIT_MAX: '100000', BODY_LIMIT_BYTES: '2048' });
});
afterAll(() => gateway.close());

function expectErrorBody(body: Record<string, unknown>, code: string): void {
  expect(body).toEqual(
    expect.objectContaining({
      code,
      message: expect.any(String),
      details: expect.any(Array),
      request_id: expect.any(String),
    }),
  );
}

describe('client mistakes are 4xx with a stable code', () => {
  it('404 PURCHASE_NOT_FOUND for an unknown or malformed id', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await request(gateway.app).get(`/api/v1/purchases/${id}`).set('Accept', 'application/json');
      expect(response.status).toBe(404);
      expectErrorBody(response.body, 'PURCHASE_NOT_FOUND');
    }
  });

  it('reads back an accepted purchase', async () => {
    const created = await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ product: 'premium', amount: 6, username: '@carol' }));
    const read = await request(gateway.app).get(created.body.status_url);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      purchase_id: created.body.purchase_id,
      status: 'queued',
      product: 'premium',
      username: '@carol',
      amount: 6,
      quantities: { months: 6 },
      payment_method: 'gram',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('shows transaction_hash when completed and error when failed', async () => {
    const done = await request(gateway.app).post('/api/v1/purchases').send(starsOrder());
    await gateway.database.pool.query(
      "UPDATE purchases SET status = 'completed', transaction_hash = 'ab12' WHERE id = $1",
      [done.body.purchase_id],
    );
    expect((await request(gateway.app).get(done.body.status_url)).body.transaction_hash).toBe('ab12');

    const failed = await request(gateway.app).post('/api/v1/purchases').send(starsOrder());
    await gateway.database.pool.query(
      `UPDATE purchases SET status = 'failed', error = '{"code":"RECIPIENT_NOT_FOUND","message":"No Telegram user has this username."}' WHERE id = $1`,
      [failed.body.purchase_id],
    );
    const read = await request(gateway.app).get(failed.body.status_url);
    expect(read.body.error).toEqual({ code: 'RECIPIENT_NOT_FOUND', message: 'No Telegram user has this username.' });
    expect(read.body.transaction_hash).toBeUndefined();
  });

  it('400 MALFORMED_JSON', async () => {
    const response = await request(gateway.app)
      .post('/api/v1/purchases')
      .set('Content-Type', 'application/json')
      .send('{"product": "stars",');
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 'MALFORMED_JSON');
  });

  it('400 when the JSON is not an object', async () => {
    const response = await request(gateway.app)
      .post('/api/v1/purchases')
      .set('Content-Type', 'application/json')
      .send('[1,2]');
    expect(response.status).toBe(400);
    expect(response.body.details[0]).toEqual({ field: 'body', message: 'must be a JSON object' });
  });

  it('415 for a body that is not JSON', async () => {
    const response = await request(gateway.app)
      .post('/api/v1/purchases')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('product=stars');
    expect(response.status).toBe(415);
    expectErrorBody(response.body, 'UNSUPPORTED_MEDIA_TYPE');
    expect(response.body.details[0].field).toBe('Content-Type');
  });

  it('413 for a body over the limit', async () => {
    const response = await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ seed: 'x'.repeat(4096) }));
    expect(response.status).toBe(413);
    expectErrorBody(response.body, 'PAYLOAD_TOO_LARGE');
  });

  it('404 NOT_FOUND for an unknown route, with the request id echoed', async () => {
    const response = await request(gateway.app).get('/api/v1/nothing').set('Request-Id', 'trace-123');
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('NOT_FOUND');
    expect(response.body.request_id).toBe('trace-123');
    expect(response.headers['request-id']).toBe('trace-123');
  });

  it('stores nothing for a rejected request', async () => {
    const before = await gateway.database.pool.query(
      'SELECT (SELECT count(*) FROM purchases) + (SELECT count(*) FROM wallet_secrets) AS n',
    );
    await request(gateway.app)
      .post('/api/v1/purchases')
      .send(starsOrder({ amount: 10 }))
      .expect(400);
    const after = await gateway.database.pool.query(
      'SELECT (SELECT count(*) FROM purchases) + (SELECT count(*) FROM wallet_secrets) AS n',
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});
