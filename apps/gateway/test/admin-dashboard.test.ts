/**
 * The dashboard's session on the real app, PostgreSQL and Redis: login with an admin token, the
 * cookie's flags, the admin API and Bull Board under the session, CSRF refusals, logout, a
 * rotated-out token ending its sessions, and no secret in any page, asset or response.
 */
import request from 'supertest';
import { AdminAudit } from '@starsgate/db';
import { adminTokenId } from '../src/admin/admin-token-id';
import { BIP39_PHRASE, createTestGateway, starsOrder, type TestGateway } from './support/test-gateway';

jest.setTimeout(120_000);

const TOKEN = 'dashboard-token-0123456789abcdefghij';
const OTHER = 'dashboard-token-second-0123456789abcd';
const HOST = 'localhost';
const ORIGIN = `http://${HOST}`;

let gateway: TestGateway;
let rotated: TestGateway;
/** Every body the dashboard's paths answered, searched for secrets at the end. */
const bodies: string[] = [];
let seedOrder: Record<string, unknown>;

const keep = <T extends { text: string }>(res: T): T => {
  bodies.push(res.text);
  return res;
};

async function login(
  app = gateway.adminApp,
  token = TOKEN,
): Promise<{ cookie: string; csrf: string; setCookie: string }> {
  const res = keep(
    await request(app)
      .post('/admin/login')
      .set('Host', HOST)
      .set('Origin', ORIGIN)
      .send({ token, operator: 'Olga Ops' }),
  );
  expect(res.status).toBe(200);
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!;
  return { cookie: setCookie.split(';')[0]!, csrf: (res.body as { csrf_token: string }).csrf_token, setCookie };
}

/** The standard error body's code. */
const code = (res: { body: unknown }): string | undefined => (res.body as { code?: string }).code;

const get = async (path: string, cookie: string) =>
  keep(await request(gateway.adminApp).get(path).set('Host', HOST).set('Cookie', cookie));

beforeAll(async () => {
  // Both gateways share the Redis key prefix, as replicas do; the second one no longer lists TOKEN.
  const prefix = `dash-${process.pid}-${Date.now()}`;
  [gateway, rotated] = await Promise.all([
    createTestGateway({ STARSGATE_ADMIN_TOKENS: `${TOKEN},${OTHER}` }, { redisKeyPrefix: prefix }),
    createTestGateway({ STARSGATE_ADMIN_TOKENS: OTHER }, { redisKeyPrefix: prefix }),
  ]);
  seedOrder = starsOrder({ seed: BIP39_PHRASE, account_index: 0 });
  expect((await request(gateway.app).post('/api/v1/purchases').send(seedOrder)).status).toBe(202);
});

afterAll(async () => {
  await Promise.all([gateway?.close(), rotated?.close()]);
});

describe('login', () => {
  test('the page and its bundle are served; the session endpoint says 401 until login', async () => {
    const page = keep(await request(gateway.adminApp).get('/admin').set('Host', HOST));
    expect(page.status).toBe(200);
    expect(page.text).toContain('/admin/assets/app.js');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const asset of ['app.js', 'app.css']) {
      const res = await request(gateway.adminApp).get(`/admin/assets/${asset}`);
      expect(res.status).toBe(200);
      bodies.push(res.text);
    }
    expect((await request(gateway.adminApp).get('/admin/assets/nope.js')).status).toBe(404);
    expect((await request(gateway.adminApp).get('/admin/session')).status).toBe(401);
  });

  test('a wrong token is 403, a missing field 400, a cross-site login 403; none sets a cookie', async () => {
    const attempt = (body: object, origin = ORIGIN) =>
      request(gateway.adminApp).post('/admin/login').set('Host', HOST).set('Origin', origin).send(body);
    const wrong = keep(await attempt({ token: 'not-the-token-0123456789', operator: 'x' }));
    expect([wrong.status, code(wrong)]).toEqual([403, 'ADMIN_TOKEN_INVALID']);
    const missing = keep(await attempt({ token: TOKEN }));
    expect([missing.status, code(missing)]).toEqual([400, 'VALIDATION_FAILED']);
    expect((missing.body as { details: unknown[] }).details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: 'operator' })]),
    );
    const crossSite = keep(await attempt({ token: TOKEN, operator: 'x' }, 'https://evil.example'));
    expect([crossSite.status, code(crossSite)]).toEqual([403, 'ADMIN_CSRF_REJECTED']);
    for (const res of [wrong, missing, crossSite]) expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('the session cookie is HttpOnly, SameSite=Strict, scoped to /admin, not Secure on loopback', async () => {
    const { setCookie } = await login();
    expect(setCookie).toMatch(/^starsgate_admin=[A-Za-z0-9_-]{43};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\/admin/);
    expect(setCookie).not.toMatch(/; Secure/);
  });

  test('the cookie is Secure on any other host', async () => {
    const res = await request(gateway.adminApp)
      .post('/admin/login')
      .set('Host', 'ops.example.com')
      .set('Origin', 'http://ops.example.com')
      .send({ token: TOKEN, operator: 'Olga Ops' });
    expect(res.status).toBe(200);
    expect(([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]).toMatch(/; Secure/);
  });
});

describe('under a session', () => {
  test('the admin API answers reads; the session endpoint gives the operator and the CSRF token', async () => {
    const { cookie, csrf } = await login();
    const session = await get('/admin/session', cookie);
    expect(session.body).toEqual({ operator: 'Olga Ops', csrf_token: csrf });
    for (const path of [
      '/admin/api/stats',
      '/admin/api/pipeline',
      '/admin/api/purchases',
      '/admin/api/webhook-endpoints',
    ]) {
      expect({ path, status: (await get(path, cookie)).status }).toEqual({ path, status: 200 });
    }
    const pipeline = await get('/admin/api/pipeline', cookie);
    const body = pipeline.body as { open: Array<Record<string, unknown>>; throughput: unknown[] };
    expect(body.open).toHaveLength(1);
    expect(body.open[0]).toMatchObject({ status: 'queued', count: 1 });
    expect(body.open[0]!.oldest_purchase_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.throughput).toHaveLength(60);
  });

  test('a state change without the CSRF token, with a wrong one, or from another origin is refused', async () => {
    const { cookie, csrf } = await login();
    const resolve = (headers: Record<string, string>) =>
      request(gateway.adminApp)
        .post('/admin/api/purchases/00000000-0000-4000-8000-000000000000/resolve')
        .set({ Host: HOST, Cookie: cookie, ...headers })
        .send({ outcome: 'failed', reason: 'test', operator: 'Olga Ops' });
    const refusedHeaders: Array<Record<string, string>> = [
      { Origin: ORIGIN },
      { Origin: ORIGIN, 'X-CSRF-Token': `${csrf}x` },
      { Origin: 'https://evil.example', 'X-CSRF-Token': csrf },
      { 'Sec-Fetch-Site': 'cross-site', 'X-CSRF-Token': csrf },
      { 'X-CSRF-Token': csrf },
    ];
    for (const headers of refusedHeaders) {
      const res = keep(await resolve(headers));
      expect({ headers, status: res.status, code: code(res) }).toEqual({
        headers,
        status: 403,
        code: 'ADMIN_CSRF_REJECTED',
      });
    }
    // Same origin with the token: the request reaches the API (which knows no such purchase).
    const passed = keep(await resolve({ Origin: ORIGIN, 'X-CSRF-Token': csrf }));
    expect([passed.status, code(passed)]).toEqual([404, 'PURCHASE_NOT_FOUND']);
    const fetchMetadata = keep(await resolve({ 'Sec-Fetch-Site': 'same-origin', 'X-CSRF-Token': csrf }));
    expect(fetchMetadata.status).toBe(404);
  });

  test("an action through the session is audited with the session's operator and token id", async () => {
    const { cookie, csrf } = await login();
    const created = keep(
      await request(gateway.adminApp)
        .post('/admin/api/webhook-endpoints')
        .set({ Host: HOST, Cookie: cookie, Origin: ORIGIN, 'X-CSRF-Token': csrf })
        .send({ url: 'http://127.0.0.1:9/hook' }),
    );
    expect(created.status).toBe(201);
    const id = (created.body as { id: string }).id;
    const [action] = await new AdminAudit(gateway.database.db).forTarget(id);
    const tokenId = adminTokenId(TOKEN, gateway.fingerprints);
    expect(action).toMatchObject({
      action: 'webhook_endpoint.created',
      actor: `token:${tokenId}`,
      operator: 'Olga Ops',
      tokenId,
    });
  });

  test('Bull Board shows every queue under the session, and sends the session-less to the login', async () => {
    const redirect = await request(gateway.adminApp).get('/admin/queues').set('Host', HOST).set('Accept', 'text/html');
    expect([redirect.status, redirect.headers.location]).toEqual([303, '/admin#/queues']);
    const api = await request(gateway.adminApp).get('/admin/queues/api/queues').set('Host', HOST);
    expect([api.status, code(api)]).toEqual([401, 'ADMIN_TOKEN_REQUIRED']);

    const { cookie } = await login();
    const board = await get('/admin/queues', cookie);
    expect(board.status).toBe(200);
    const queues = await get('/admin/queues/api/queues', cookie);
    expect(queues.status).toBe(200);
    expect((queues.body as { queues: Array<{ name: string }> }).queues.map((queue) => queue.name).sort()).toEqual([
      'purchases',
      'webhook-deliveries',
    ]);
    const crossSite = await request(gateway.adminApp)
      .put('/admin/queues/api/queues/purchases/pause')
      .set({ Host: HOST, Cookie: cookie, Origin: 'https://evil.example' });
    expect([crossSite.status, code(crossSite)]).toEqual([403, 'ADMIN_CSRF_REJECTED']);
    for (const path of ['/admin/queues/api/queues/purchases/pause', '/admin/queues/api/queues/pause']) {
      const sameSite = await request(gateway.adminApp).put(path).set({ Host: HOST, Cookie: cookie, Origin: ORIGIN });
      expect([sameSite.status, code(sameSite)]).toEqual([405, 'ADMIN_QUEUES_READ_ONLY']);
    }
    expect(await gateway.queue.isPaused()).toBe(false);
  });

  test('BULL_BOARD_WRITABLE=true: a Bull Board change runs, recorded with the session token as actor', async () => {
    const writable = await createTestGateway({ STARSGATE_ADMIN_TOKENS: TOKEN, BULL_BOARD_WRITABLE: 'true' });
    try {
      const { cookie } = await login(writable.adminApp);
      const change = (verb: string) =>
        request(writable.adminApp)
          .put(`/admin/queues/api/queues/purchases/${verb}`)
          .set({ Host: HOST, Cookie: cookie, Origin: ORIGIN });
      expect((await change('pause')).status).toBe(200);
      expect(await writable.queue.isPaused()).toBe(true);
      expect((await change('resume')).status).toBe(200);
      const audit = new AdminAudit(writable.database.db);
      for (const verb of ['pause', 'resume'])
        expect(await audit.forTarget(`/api/queues/purchases/${verb}`)).toEqual([
          expect.objectContaining({
            action: 'bull_board.put',
            actor: `token:${adminTokenId(TOKEN, writable.fingerprints)}`,
            operator: 'Olga Ops',
          }),
        ]);
    } finally {
      await writable.close();
    }
  });

  test('logout ends the session and clears the cookie', async () => {
    const { cookie, csrf } = await login();
    const refused = await request(gateway.adminApp)
      .post('/admin/logout')
      .set({ Host: HOST, Cookie: cookie, Origin: ORIGIN });
    expect(refused.status).toBe(403);
    const out = await request(gateway.adminApp)
      .post('/admin/logout')
      .set({ Host: HOST, Cookie: cookie, Origin: ORIGIN, 'X-CSRF-Token': csrf });
    expect(out.status).toBe(204);
    expect(([] as string[]).concat(out.headers['set-cookie'] ?? [])[0]).toMatch(
      /^starsgate_admin=;.*Expires=Thu, 01 Jan 1970/,
    );
    expect((await get('/admin/api/stats', cookie)).status).toBe(401);
    expect((await get('/admin/session', cookie)).status).toBe(401);
  });

  test('a session ends when its token is rotated out (on every replica)', async () => {
    const { cookie } = await login();
    expect((await request(rotated.adminApp).get('/admin/api/stats').set('Cookie', cookie)).status).toBe(401);
    expect((await get('/admin/api/stats', cookie)).status).toBe(200);
    const other = await login(gateway.adminApp, OTHER);
    expect((await request(rotated.adminApp).get('/admin/api/stats').set('Cookie', other.cookie)).status).toBe(200);
  });

  test('a bearer token still works beside the session, and a bad cookie is no session', async () => {
    expect(
      (await request(gateway.adminApp).get('/admin/api/stats').set('Authorization', `Bearer ${TOKEN}`)).status,
    ).toBe(200);
    const forged = await get('/admin/api/stats', 'starsgate_admin=forged-session-id');
    expect([forged.status, code(forged)]).toEqual([401, 'ADMIN_TOKEN_REQUIRED']);
  });
});

test('no page, asset or response of the dashboard carries a secret', async () => {
  const { cookie } = await login();
  const list = await get('/admin/api/purchases', cookie);
  const id = (list.body as { data: Array<{ purchase_id: string }> }).data[0]!.purchase_id;
  await get(`/admin/api/purchases/${id}`, cookie);
  await get('/admin/queues/api/queues?activeQueue=purchases&status=latest&page=1', cookie);
  const haystack = bodies.join('\n');
  expect(bodies.length).toBeGreaterThan(20);
  expect(haystack).toContain(id);
  const seed = String(seedOrder.seed);
  for (const secret of [TOKEN, OTHER, seed, seed.split(' ').slice(0, 4).join(' '), process.env.STARSGATE_SECRET_KEY]) {
    if (secret) expect(haystack).not.toContain(secret);
  }
  expect(haystack).not.toMatch(/ciphertext|sealed|wrapped_key|stel_ssid|stel_token/i);
});
