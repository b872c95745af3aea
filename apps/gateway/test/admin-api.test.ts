/**
 * The operator API on the real app, PostgreSQL and Redis: the 401/403/404 rules on every admin
 * route, filters and cursor pagination over a few thousand rows, a purchase's detail and
 * timeline, the stats, webhook endpoint management, and no secret in any admin response.
 */
import request from 'supertest';
import { Address } from '@ton/core';
import { UpstreamFormatErrorRepository } from '@starsgate/db';
import { insertSyntheticPurchases, SYNTHETIC } from '@starsgate/db/testing';
import { BIP39_PHRASE, createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';

jest.setTimeout(120_000);

const TOKEN = 'admin-token-one-0123456789abcdefghij';
const ROTATED_IN = 'admin-token-two-0123456789abcdefghij';
const ROWS = 3_000;

let gateway: TestGateway;
let closed: TestGateway;
let created: { purchase_id: string };
/** Every admin response body seen, to search for secrets at the end. */
const bodies: string[] = [];

const admin = (token = TOKEN) => ({
  get: (path: string) =>
    request(gateway.adminApp)
      .get(path)
      .set('Authorization', `Bearer ${token}`)
      .then((res) => (bodies.push(res.text), res)),
  post: (path: string, body?: object) =>
    request(gateway.adminApp)
      .post(path)
      .set('Authorization', `Bearer ${token}`)
      .send(body)
      .then((res) => (bodies.push(res.text), res)),
  delete: (path: string) =>
    request(gateway.adminApp)
      .delete(path)
      .set('Authorization', `Bearer ${token}`)
      .then((res) => (bodies.push(res.text), res)),
});

beforeAll(async () => {
  [gateway, closed] = await Promise.all([
    createTestGateway({
      STARSGATE_ADMIN_TOKENS: `${TOKEN}, ${ROTATED_IN}`,
      RATE_LIMIT_MAX: '100000',
      // This file tries wrong tokens on purpose; the failure limiter has its own test (test/security/03).
      ADMIN_AUTH_FAILURES_PER_CLIENT: '100000',
      ADMIN_AUTH_FAILURES_GLOBAL: '100000',
    }),
    createTestGateway({ STARSGATE_ADMIN_TOKENS: '' }),
  ]);
  await insertSyntheticPurchases(gateway.database.pool, ROWS);
  // Some of them are checkouts (client-signed rows of the same table), which the listing shows too.
  await gateway.database.pool.query(
    "UPDATE purchases SET mode = 'client_signed', seed_format = NULL WHERE idempotency_key LIKE 'synthetic-%7'",
  );
  const accepted = await request(gateway.app)
    .post('/api/v1/purchases')
    .send(starsOrder({ seed: BIP39_PHRASE, account_index: 0 }));
  expect(accepted.status).toBe(202);
  created = accepted.body as { purchase_id: string };
});

afterAll(async () => {
  await Promise.all([gateway?.close(), closed?.close()]);
});

const SOME_ID = '00000000-0000-4000-8000-000000000000';
const ROUTES: Array<[string, string]> = [
  ['get', '/admin/api/purchases'],
  ['get', `/admin/api/purchases/${SOME_ID}`],
  ['post', `/admin/api/purchases/${SOME_ID}/resolve`],
  ['get', '/admin/api/stats'],
  ['get', '/admin/api/fragment-sessions'],
  ['post', '/admin/api/webhook-endpoints'],
  ['get', '/admin/api/webhook-endpoints'],
  ['delete', `/admin/api/webhook-endpoints/${SOME_ID}`],
  ['post', `/admin/api/webhook-endpoints/${SOME_ID}/rotate-secret`],
  ['get', '/admin/api/webhook-deliveries'],
  ['post', `/admin/api/webhook-deliveries/${SOME_ID}/retry`],
];

describe('access', () => {
  test.each(ROUTES)(
    '%s %s: 401 without a token, 403 with a wrong one, 404 with no token configured',
    async (method, path) => {
      const call = (app: TestGateway['app']) =>
        (request(app) as unknown as Record<string, (p: string) => request.Test>)[method]!(path);
      const none = await call(gateway.adminApp);
      expect({ status: none.status, code: none.body.code }).toEqual({ status: 401, code: 'ADMIN_TOKEN_REQUIRED' });
      expect(none.body.request_id).toEqual(expect.any(String));
      const basic = await call(gateway.adminApp).set('Authorization', `Basic ${Buffer.from('a:b').toString('base64')}`);
      expect(basic.status).toBe(401);
      const wrong = await call(gateway.adminApp).set('Authorization', `Bearer ${TOKEN}x`);
      expect({ status: wrong.status, code: wrong.body.code }).toEqual({ status: 403, code: 'ADMIN_TOKEN_INVALID' });
      const disabled = await call(closed.adminApp).set('Authorization', `Bearer ${TOKEN}`);
      expect({ status: disabled.status, code: disabled.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
      // The operator API lives on the operator listener only; the public one does not know it (docs/security.md, attack 15).
      const onPublic = await call(gateway.app).set('Authorization', `Bearer ${TOKEN}`);
      expect({ status: onPublic.status, code: onPublic.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    },
  );

  test('every configured token is accepted (rotation without downtime)', async () => {
    expect((await admin(TOKEN).get('/admin/api/stats')).status).toBe(200);
    expect((await admin(ROTATED_IN).get('/admin/api/stats')).status).toBe(200);
  });

  test('the operator OpenAPI document lists every admin route under the admin tag, behind the bearer token', async () => {
    const document = (await admin(TOKEN).get('/admin/api/openapi.json')).body as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown[] }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    for (const [method, path] of ROUTES) {
      const template = path.replace(
        SOME_ID,
        `{${path.includes('webhook-endpoints') ? 'endpoint_id' : path.includes('deliveries') ? 'delivery_id' : 'purchase_id'}}`,
      );
      expect(document.paths[template]?.[method]).toMatchObject({ tags: ['admin'], security: [{ adminToken: [] }] });
    }
    expect(document.components.securitySchemes.adminToken).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [path, item] of Object.entries(document.paths))
      if (!path.startsWith('/admin/'))
        for (const operation of Object.values(item)) expect(operation.tags ?? []).not.toContain('admin');
  });

  test('the public API still needs no key', async () => {
    expect((await request(gateway.app).get(`/api/v1/purchases/${created.purchase_id}`)).status).toBe(200);
  });
});

/** Every page of a listing, following next_cursor. */
async function allPages(query: string, limit: number): Promise<Array<Record<string, unknown>>> {
  const rows: Array<Record<string, unknown>> = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 1_000; pages += 1) {
    const res = await admin().get(
      `/admin/api/purchases?${query}&limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    expect(res.status).toBe(200);
    const body = res.body as { data: Array<Record<string, unknown>>; next_cursor: string | null };
    expect(body.data.length).toBeLessThanOrEqual(limit);
    rows.push(...body.data);
    if (body.next_cursor === null) return rows;
    cursor = body.next_cursor;
  }
  throw new Error('pagination did not end');
}

async function expected(where: string, values: unknown[]): Promise<string[]> {
  const { rows } = await gateway.database.pool.query<{ id: string }>(
    `SELECT id FROM purchases WHERE ${where} ORDER BY created_at DESC, id DESC`,
    values,
  );
  return rows.map((row) => row.id);
}

describe('GET /admin/api/purchases', () => {
  const from = new Date(Date.parse(SYNTHETIC.createdFrom));
  test.each<[string, string, string, unknown[], number]>([
    ['everything', '', 'true', [], 200],
    ['status', 'status=reconciliation_required', "status = 'reconciliation_required'", [], 3],
    ['mode (purchases)', 'mode=server_signed&product=stars', "mode = 'server_signed' AND product = 'stars'", [], 100],
    ['mode (checkouts)', 'mode=client_signed', "mode = 'client_signed'", [], 50],
    [
      'product and payment method',
      'product=premium&payment_method=usdt',
      "product = 'premium' AND payment_method = 'usdt'",
      [],
      17,
    ],
    ['username, any case, without @', 'username=USER42', "lower(username) = '@user42'", [], 1],
    ['wallet address (friendly form)', '', 'wallet_address = $1', [SYNTHETIC.wallet(7)], 1],
    ['idempotency key', 'idempotency_key=synthetic-123', "idempotency_key = 'synthetic-123'", [], 5],
    [
      'created range',
      `created_from=${new Date(from.getTime()).toISOString()}&created_to=${new Date(from.getTime() + 1).toISOString()}`,
      'created_at >= $1 AND created_at < $2',
      [from, new Date(from.getTime() + 1)],
      50,
    ],
  ])('%s: every page, newest first, nothing skipped or repeated', async (_label, query, where, values, limit) => {
    let filter = query;
    if (_label.startsWith('wallet')) {
      filter = `wallet_address=${Address.parseRaw(SYNTHETIC.wallet(7)).toString({ bounceable: false })}`;
    }
    const rows = await allPages(filter, limit);
    const ids = rows.map((row) => row.purchase_id);
    const want = await expected(where, values);
    expect(want.length).toBeGreaterThan(0);
    expect(ids).toEqual(want);
    const mode = /mode=(\w+)/.exec(query)?.[1];
    if (mode) expect(new Set(rows.map((row) => row.mode))).toEqual(new Set([mode]));
  });

  test('the default page is 50 rows; limit 1 to 200; a cursor must be one the API returned', async () => {
    const first = await admin().get('/admin/api/purchases');
    expect(first.body.data).toHaveLength(50);
    expect(typeof first.body.next_cursor).toBe('string');
    for (const bad of [
      'limit=0',
      'limit=201',
      'limit=x',
      'status=paid',
      'product=gold',
      'created_from=yesterday',
      'colour=red',
    ]) {
      const res = await admin().get(`/admin/api/purchases?${bad}`);
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe(bad.split('=')[0]);
    }
    for (const cursor of ['garbage', Buffer.from('1.2.3').toString('base64url')]) {
      const res = await admin().get(`/admin/api/purchases?cursor=${cursor}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 400, code: 'INVALID_CURSOR' });
    }
    const badWallet = await admin().get('/admin/api/purchases?wallet_address=nope');
    expect({ status: badWallet.status, code: badWallet.body.code }).toEqual({
      status: 400,
      code: 'INVALID_WALLET_ADDRESS',
    });
  });
});

describe('GET /admin/api/purchases/:id', () => {
  test('the public fields, the payer wallet and version, the timeline; never the seed', async () => {
    const res = await admin().get(`/admin/api/purchases/${created.purchase_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      purchase_id: created.purchase_id,
      status: 'queued',
      product: 'stars',
      wallet_address: expect.stringMatching(/^0:[0-9a-f]{64}$/),
      wallet_version: 'V5R1',
      version: 1,
      fragment_request_id: null,
      normalized_hash: null,
      evidence: null,
    });
    expect(res.body.events).toEqual([
      {
        at: expect.any(String),
        type: 'transition',
        from_status: null,
        to_status: 'queued',
        actor: expect.any(String),
        reason: expect.any(String),
        details: null,
      },
    ]);
  });

  test('the payment Fragment asked for: base units for machines, the same amounts in GRAM/USDT for people', async () => {
    const pool = gateway.database.pool;
    const show = async (paymentRequest: object) => {
      await pool.query('UPDATE purchases SET payment_request = $2 WHERE id = $1', [
        created.purchase_id,
        JSON.stringify(paymentRequest),
      ]);
      const res = await admin().get(`/admin/api/purchases/${created.purchase_id}`);
      expect(res.status).toBe(200);
      return res.body.paid_amount as Record<string, unknown>;
    };
    try {
      expect(
        await show({ currency: 'GRAM', quote: '441200000', message: { address: 'EQfragment', amount: '441200000' } }),
      ).toEqual({
        currency: 'GRAM',
        quote: '441200000',
        quote_human: '0.4412 GRAM',
        message_nano: '441200000',
        message_human: '0.4412 GRAM',
        receiver: 'EQfragment',
      });
      expect(
        await show({
          currency: 'USDT',
          quote: '750000',
          message: { address: 'EQjettonwallet', amount: '50000000' },
          jetton: { amount: '750000', destination: 'EQfragment' },
        }),
      ).toMatchObject({
        quote: '750000',
        quote_human: '0.75 USDT',
        message_human: '0.05 GRAM',
        jetton_units: '750000',
        jetton_human: '0.75 USDT',
      });
    } finally {
      await pool.query('UPDATE purchases SET payment_request = NULL WHERE id = $1', [created.purchase_id]);
    }
  });

  test('the wallet Fragment named as transaction.from, and whether it is the payer', async () => {
    const detail = async () => (await admin().get(`/admin/api/purchases/${created.purchase_id}`)).body;
    expect(await detail()).toMatchObject({ fragment_from: null, fragment_from_is_payer: null });
    const linked = new Address(0, Buffer.alloc(32, 7)).toRawString();
    const store = (fragmentFrom: string) =>
      gateway.database.pool.query(
        `UPDATE purchases SET payment_request = jsonb_build_object('currency', 'GRAM', 'fragmentFrom', $2::text) WHERE id = $1`,
        [created.purchase_id, fragmentFrom],
      );
    await store(linked);
    const payer = (await detail()) as { wallet_address: string };
    expect(await detail()).toMatchObject({ fragment_from: linked, fragment_from_is_payer: false });
    await store(payer.wallet_address);
    expect(await detail()).toMatchObject({ fragment_from: payer.wallet_address, fragment_from_is_payer: true });
    await gateway.database.pool.query('UPDATE purchases SET payment_request = NULL WHERE id = $1', [
      created.purchase_id,
    ]);
  });

  test('unknown or malformed ids: 404 PURCHASE_NOT_FOUND', async () => {
    for (const id of [SOME_ID, 'not-a-uuid']) {
      const res = await admin().get(`/admin/api/purchases/${id}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'PURCHASE_NOT_FOUND' });
    }
  });
});

describe('POST /admin/api/purchases/:id/resolve (without the chain)', () => {
  test('only a reconciliation case; the body is validated; unknown purchase 404', async () => {
    const body = { outcome: 'failed', reason: 'checked by hand', operator: 'alice' };
    const running = await admin().post(`/admin/api/purchases/${created.purchase_id}/resolve`, body);
    expect({ status: running.status, code: running.body.code }).toEqual({
      status: 409,
      code: 'PURCHASE_NOT_IN_RECONCILIATION',
    });
    const missingHash = await admin().post(`/admin/api/purchases/${created.purchase_id}/resolve`, {
      ...body,
      outcome: 'completed',
    });
    expect({ status: missingHash.status, field: missingHash.body.details[0].field }).toEqual({
      status: 400,
      field: 'transaction_hash',
    });
    const extra = await admin().post(`/admin/api/purchases/${created.purchase_id}/resolve`, { ...body, seed: 'x' });
    expect(extra.body.code).toBe('UNKNOWN_FIELD');
    const unknown = await admin().post(`/admin/api/purchases/${SOME_ID}/resolve`, body);
    expect(unknown.status).toBe(404);
    const row = await gateway.database.pool.query('SELECT status, version FROM purchases WHERE id = $1', [
      created.purchase_id,
    ]);
    expect(row.rows[0]).toEqual({ status: 'queued', version: 1 });
  });
});

describe('GET /admin/api/stats', () => {
  test('counts by status, ages of live statuses, open cases, the last hour, every queue', async () => {
    const res = await admin().get('/admin/api/stats');
    expect(res.status).toBe(200);
    const { rows } = await gateway.database.pool.query<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM purchases GROUP BY status',
    );
    for (const { status, n } of rows) expect(res.body.counts[status]).toBe(n);
    expect(res.body.counts.sending).toBe(0);
    expect(res.body.oldest_age_seconds.queued).toBeGreaterThan(0);
    expect(res.body.oldest_age_seconds).not.toHaveProperty('completed');
    expect(res.body.reconciliation).toEqual({
      open: res.body.counts.reconciliation_required,
      oldest_age_seconds: expect.any(Number),
    });
    // Synthetic rows finished in 2026-01: none in the last hour.
    expect(res.body.last_hour).toEqual({ completed: 0, failed: 0 });
    expect(Object.keys(res.body.queues).sort()).toEqual(['purchases', 'webhook-deliveries']);
    expect(res.body.queues.purchases).toEqual({ waiting: expect.any(Number), active: 0, delayed: 0, failed: 0 });
    expect(res.body.upstream_format_errors).toEqual([]);
  });

  test('an upstream answer the worker could not read shows in the stats until it is fixed', async () => {
    const reports = new UpstreamFormatErrorRepository(gateway.database.db);
    const entry = { source: 'fragment_history', sessionId: 'acct-1', problem: 'no table rows' };
    await reports.record(entry);
    await reports.record(entry);
    const res = await admin().get('/admin/api/stats');
    expect(res.status).toBe(200);
    expect(res.body.upstream_format_errors).toEqual([
      {
        source: 'fragment_history',
        session_id: 'acct-1',
        problem: 'no table rows',
        occurrences: 2,
        first_seen_at: expect.any(String),
        last_seen_at: expect.any(String),
      },
    ]);
  });
});

describe('webhook endpoints', () => {
  test('create (secret shown once), list masked, rotate (both valid), delete', async () => {
    const createdEndpoint = await admin().post('/admin/api/webhook-endpoints', {
      url: 'http://127.0.0.1:9/hook',
      description: 'ops',
      events: ['purchase.completed', 'purchase.failed'],
    });
    expect(createdEndpoint.status).toBe(201);
    const { id, secret } = createdEndpoint.body as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(createdEndpoint.body.events).toEqual(['purchase.completed', 'purchase.failed']);

    const listed = await admin().get('/admin/api/webhook-endpoints');
    expect(listed.body.data).toEqual([
      expect.objectContaining({
        id,
        url: 'http://127.0.0.1:9/hook',
        secrets: [{ hint: expect.any(String), expires_at: null }],
      }),
    ]);
    expect(listed.text).not.toContain(secret);

    const rotated = await admin().post(`/admin/api/webhook-endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(secret);
    const overlapEnd = Date.parse(rotated.body.secrets[1].expires_at as string);
    expect(overlapEnd - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    expect(rotated.body.secrets[0].expires_at).toBeNull();
    const relisted = await admin().get('/admin/api/webhook-endpoints');
    expect(relisted.text).not.toContain(secret);
    expect(relisted.text).not.toContain(rotated.body.secret as string);

    expect(
      (
        await request(gateway.adminApp)
          .delete(`/admin/api/webhook-endpoints/${id}`)
          .set('Authorization', `Bearer ${ROTATED_IN}`)
          .set('Starsgate-Operator', 'alice')
      ).status,
    ).toBe(204);
    // Every change is audited with the token that made it (never the token itself) and its operator.
    const { rows: audit } = await gateway.database.pool.query<{ action: string; operator: string; token_id: string }>(
      'SELECT action, operator, token_id FROM admin_actions WHERE target_id = $1 ORDER BY id',
      [id],
    );
    expect(audit.map((row) => row.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.secret_rotated',
      'webhook_endpoint.deleted',
    ]);
    expect(audit[0]!.operator).toBe(`token:${audit[0]!.token_id}`);
    expect(audit[2]!.operator).toBe('alice');
    expect(audit[2]!.token_id).not.toBe(audit[0]!.token_id);
    expect(JSON.stringify(audit)).not.toContain(TOKEN);
    const again = await admin().delete(`/admin/api/webhook-endpoints/${id}`);
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 404,
      code: 'WEBHOOK_ENDPOINT_NOT_FOUND',
    });
    expect((await admin().get('/admin/api/webhook-endpoints')).body.data).toEqual([]);
  });

  test.each([
    ['http://example.com/hook', 'WEBHOOK_URL_NOT_ALLOWED'],
    ['ftp://127.0.0.1/hook', 'WEBHOOK_URL_NOT_ALLOWED'],
    ['https://user:pass@example.com/hook', 'WEBHOOK_URL_NOT_ALLOWED'],
    ['not a url', 'WEBHOOK_URL_NOT_ALLOWED'],
  ])('%s is refused (%s)', async (url, code) => {
    const res = await admin().post('/admin/api/webhook-endpoints', { url });
    expect({ status: res.status, code: res.body.code, field: res.body.details[0].field }).toEqual({
      status: 400,
      code,
      field: 'url',
    });
  });

  test('https anywhere; unknown event types are refused', async () => {
    const ok = await admin().post('/admin/api/webhook-endpoints', { url: 'https://example.com/hook' });
    expect(ok.status).toBe(201);
    const bad = await admin().post('/admin/api/webhook-endpoints', {
      url: 'https://example.com/x',
      events: ['purchase.paid'],
    });
    expect(bad.status).toBe(400);
    expect((await admin().delete(`/admin/api/webhook-endpoints/${ok.body.id as string}`)).status).toBe(204);
  });
});

test('no admin response carries a wallet secret or sealed bytes', async () => {
  const sealed = await gateway.database.pool.query<{ wrapped: string; cipher: string }>(
    "SELECT encode(wrapped_key, 'base64') AS wrapped, encode(ciphertext, 'base64') AS cipher FROM wallet_secrets",
  );
  const all = bodies.join('\n');
  expect(bodies.length).toBeGreaterThan(20);
  expect(all).not.toContain(BIP39_PHRASE);
  expect(all).not.toContain(BIP39_PHRASE.split(' ').slice(0, 3).join(' '));
  for (const row of sealed.rows) {
    expect(all).not.toContain(row.wrapped.slice(0, 24));
    expect(all).not.toContain(row.cipher.slice(0, 24));
  }
  expect(all).not.toMatch(/ciphertext|wrapped_key|signing_secrets|request_fingerprint/);
});
