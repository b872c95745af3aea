/**
 * What a schema cannot describe, sent as raw bytes to the real gateway: content types, charsets
 * and encodings (UTF-16, invalid UTF-8, gzip with bad data), raw JSON text (duplicate keys, deep
 * nesting, huge strings and numbers), lying Content-Length and chunked framing, oversized bodies,
 * random headers (Idempotency-Key, Authorization, the operator and CSRF headers, cookies), the
 * dashboard's session routes, and random paths and methods. Same properties as every fuzz case:
 * an answer within the bound, no 5xx, a catalogue code and details on every 4xx, nothing stored.
 */
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { ADMIN_TOKEN, startFuzzStack, type FuzzStack } from './support/fuzz-stack';
import { assertProperty, printSummary, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-settings';
import { starsOrder } from '@starsgate/gateway/testing';
import { deeplyNested } from './support/schema-arbitraries';
import { percentEncode } from './support/operations';
import { histogramLine, probe, statusHistogram } from './support/probe';
import { sendRaw } from './support/raw-http';

jest.setTimeout(FUZZ_TEST_TIMEOUT_MS);

let stack: FuzzStack;

beforeAll(async () => {
  stack = await startFuzzStack({ env: { RATE_LIMIT_MAX: '1000000', KEY_DERIVATIONS_PER_MINUTE: '1000000' } });
});

afterAll(async () => {
  for (const name of statusHistogram.keys())
    process.stdout.write(`fuzz http-transport | ${name} statuses: ${histogramLine(name)}\n`);
  printSummary('http-transport');
  await stack?.close();
});

const BODY_ROUTES = [
  '/api/v1/purchases',
  '/api/v1/checkouts',
  '/api/v1/wallets/resolve',
  '/api/v1/availability/check',
  '/api/v1/checkouts/00000000-0000-4000-8000-000000000000/submitted',
  '/admin/api/webhook-endpoints',
  '/admin/api/purchases/00000000-0000-4000-8000-000000000000/resolve',
];

const adminAuth = (path: string): Array<[string, string]> =>
  path.startsWith('/admin/api') ? [['Authorization', `Bearer ${ADMIN_TOKEN}`]] : [];

const route = fc.constantFrom(...BODY_ROUTES);

test('content types, charsets and content encodings', async () => {
  const contentType = fc.oneof(
    fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'application/json; charset=utf-16',
      'application/json; charset=utf-16le',
      'application/json; charset=latin1',
      'application/json; charset=bogus',
      'application/json;charset="UTF-8"',
      'application/merge-patch+json',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '',
      '*/*',
      'application/json, text/plain',
      'application/json; charset=utf-8; charset=utf-16',
    ),
    fc.string({ maxLength: 60 }),
  );
  const encoding = fc.constantFrom(
    undefined,
    'gzip',
    'gzip-bad',
    'deflate-bad',
    'br',
    'identity',
    'x-unknown',
    'gzip, gzip',
  );
  const bodyForm = fc.constantFrom('utf8', 'utf16le', 'utf8-bom', 'invalid-utf8', 'latin1');
  await assertProperty(
    'content types, charsets, encodings',
    fc.record({ path: route, contentType, encoding, bodyForm }),
    async ({ path, contentType: type, encoding: enc, bodyForm: form }) => {
      const text = JSON.stringify({ ...starsOrder(), username: '@alïce' });
      let body =
        form === 'utf16le'
          ? Buffer.from(text, 'utf16le')
          : form === 'utf8-bom'
            ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)])
            : form === 'invalid-utf8'
              ? Buffer.concat([
                  Buffer.from(text.slice(0, 20)),
                  Buffer.from([0xc3, 0x28, 0xff, 0xfe]),
                  Buffer.from(text.slice(20)),
                ])
              : Buffer.from(text, form === 'latin1' ? 'latin1' : 'utf8');
      const headers: Array<[string, string]> = [
        ...adminAuth(path),
        ['Origin', `http://127.0.0.1:${stack.portFor(path)}`],
      ];
      if (type !== '') headers.push(['Content-Type', type]);
      if (enc === 'gzip') body = gzipSync(body);
      if (enc === 'gzip-bad' || enc === 'deflate-bad') body = Buffer.concat([Buffer.from([0x1f, 0x8b, 0x08]), body]);
      if (enc !== undefined) headers.push(['Content-Encoding', enc.replace(/-bad$/, '')]);
      await probe(
        stack,
        'content types, charsets, encodings',
        { method: 'POST', path, headers, body },
        { extra: `${type} ${enc ?? ''} ${form}` },
      );
    },
    60,
  );
});

/** JSON text a serializer never writes but a client may send. */
const rawJsonText = fc.oneof(
  // Duplicate keys: the last one wins in JSON.parse; a money field twice must not slip past validation.
  fc
    .tuple(
      fc.constantFrom('amount', 'product', 'seed', 'idempotency_key', 'payment_method', '__proto__', 'constructor'),
      fc.jsonValue({ maxDepth: 1 }),
    )
    .map(([key, value]) => {
      const text = JSON.stringify(starsOrder());
      return `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value) ?? 'null'}}`;
    }),
  fc.constantFrom(
    '{"__proto__":{"amount":50},"product":"stars"}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"amount":1e999}',
    '{"amount":-0}',
    '{"amount":50.0}',
    '{"amount":5e1}',
    '{"amount":0x32}',
    '{"amount":NaN}',
    '{"a":1,}',
    '{"a":1 /* comment */}',
    "{'a':1}",
    '',
    ' ',
    'null',
    'true',
    '"string"',
    '[]',
    '[{}]',
    '12',
    '{',
    '}',
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
    '{"a":"\u0000"}',
    '\ufeff{}',
  ),
  fc
    .integer({ min: 1, max: 20_000 })
    .chain((depth) => fc.constantFrom(deeplyNested(depth, 'array'), deeplyNested(depth, 'object'))),
  fc
    .integer({ min: 1_000, max: 30_000 })
    .map((length) => JSON.stringify({ ...starsOrder(), username: `@${'a'.repeat(length)}` })),
  fc.integer({ min: 1, max: 400 }).map((digits) => `{"amount":${'9'.repeat(digits)}}`),
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null'),
);

test('raw JSON text: duplicate keys, deep nesting, huge values, not JSON at all', async () => {
  await assertProperty(
    'raw JSON text',
    fc.record({ path: route, text: rawJsonText }),
    async ({ path, text }) => {
      await probe(stack, 'raw JSON text', {
        method: 'POST',
        path,
        headers: [
          ['Content-Type', 'application/json'],
          ...adminAuth(path),
          ['Origin', `http://127.0.0.1:${stack.portFor(path)}`],
        ],
        body: Buffer.from(text, 'utf8'),
      });
    },
    80,
    // Found by this property: kept as regressions.
    [
      { path: '/api/v1/purchases', text: '{"a":"\\u0000"}' },
      { path: '/admin/api/webhook-endpoints', text: '{"url":"https://h.example/x","description":"\\u0000"}' },
    ],
  );
});

test('a duplicate key never changes what validation saw', async () => {
  const order = starsOrder();
  const text = `${JSON.stringify({ ...order, amount: 1 }).slice(0, -1)},"amount":50}`;
  const response = await probe(stack, 'duplicate keys (last wins)', {
    method: 'POST',
    path: '/api/v1/purchases',
    headers: [['Content-Type', 'application/json']],
    body: Buffer.from(text),
  });
  // The amount that was validated is the amount stored: the last one.
  expect(response.status).toBe(202);
  const { rows } = await stack.harness.database.pool.query<{ amount: number }>(
    'SELECT amount FROM purchases WHERE idempotency_key = $1',
    [order.idempotency_key],
  );
  expect(rows).toEqual([{ amount: 50 }]);
});

test('framing: lying Content-Length, chunked bodies, oversized bodies', async () => {
  const framing = fc.oneof(
    fc.record({ kind: fc.constant('longer-than-sent' as const), extra: fc.integer({ min: 1, max: 10_000 }) }),
    fc.record({ kind: fc.constant('shorter-than-sent' as const), cut: fc.integer({ min: 1, max: 50 }) }),
    fc.record({ kind: fc.constant('chunked' as const), broken: fc.boolean() }),
    fc.record({ kind: fc.constant('huge' as const), bytes: fc.integer({ min: 16_385, max: 2_000_000 }) }),
    fc.record({
      kind: fc.constant('not-a-number' as const),
      value: fc.constantFrom('-1', 'abc', '1e3', '', '99999999999999999999'),
    }),
  );
  await assertProperty(
    'framing and sizes',
    fc.record({ path: route, framing }),
    async ({ path, framing: f }) => {
      const text = Buffer.from(JSON.stringify(starsOrder()));
      const headers: Array<[string, string]> = [
        ['Content-Type', 'application/json'],
        ...adminAuth(path),
        ['Origin', `http://127.0.0.1:${stack.portFor(path)}`],
      ];
      switch (f.kind) {
        case 'longer-than-sent':
          // The client dies mid-body: the server knows (half-close) and must still answer or close cleanly.
          await probe(
            stack,
            'framing and sizes',
            {
              method: 'POST',
              path,
              headers: [...headers, ['Content-Length', String(text.length + f.extra)]],
              body: text,
            },
            { halfClose: true, extra: f.kind },
          );
          return;
        case 'shorter-than-sent':
          await probe(
            stack,
            'framing and sizes',
            {
              method: 'POST',
              path,
              headers: [...headers, ['Content-Length', String(Math.max(0, text.length - f.cut))]],
              body: text,
            },
            { extra: f.kind },
          );
          return;
        case 'chunked': {
          const chunks = f.broken
            ? `${text.length.toString(16)}\r\n${text.toString()}\r\nzz\r\n`
            : `${text.length.toString(16)}\r\n${text.toString()}\r\n0\r\n\r\n`;
          await probe(
            stack,
            'framing and sizes',
            {
              method: 'POST',
              path,
              headers: [...headers, ['Transfer-Encoding', 'chunked']],
              body: Buffer.from(chunks),
            },
            { halfClose: f.broken, extra: f.kind },
          );
          return;
        }
        case 'huge': {
          const body = Buffer.from(JSON.stringify({ ...starsOrder(), seed: 'x'.repeat(f.bytes) }));
          await probe(stack, 'framing and sizes', { method: 'POST', path, headers, body }, { extra: f.kind });
          return;
        }
        case 'not-a-number':
          await probe(
            stack,
            'framing and sizes',
            { method: 'POST', path, headers: [...headers, ['Content-Length', f.value]], body: text },
            { halfClose: true, extra: f.kind },
          );
      }
    },
    40,
  );
});

test('headers: Idempotency-Key, Authorization, operator, CSRF, cookies, request ids', async () => {
  const headerValue = fc.oneof(
    fc.string({ maxLength: 80 }).map((s) => s.replace(/[\r\n]/g, '')),
    fc.constantFrom(
      '',
      ' ',
      'a'.repeat(8_000),
      `Bearer ${ADMIN_TOKEN}`,
      `bearer  ${ADMIN_TOKEN} `,
      `Bearer ${ADMIN_TOKEN}x`,
      'Basic YWRtaW46YWRtaW4=',
      'Bearer',
      'Bearer a b',
    ),
    fc
      .uint8Array({ maxLength: 40 })
      .map((bytes) => Buffer.from(bytes.filter((b) => b !== 10 && b !== 13 && b !== 0)).toString('latin1')),
  );
  const header = fc.tuple(
    fc.constantFrom(
      'Idempotency-Key',
      'Authorization',
      'Starsgate-Operator',
      'X-CSRF-Token',
      'Cookie',
      'X-Request-Id',
      'Request-Id',
      'Origin',
      'Sec-Fetch-Site',
      'Accept',
      'Accept-Charset',
      'X-Forwarded-For',
      'Host',
      'Expect',
      'Content-Type',
    ),
    headerValue,
  );
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE'),
    path: fc.constantFrom(
      '/api/v1/purchases',
      '/admin/api/stats',
      '/admin/api/webhook-endpoints',
      '/admin/api/purchases',
      '/admin/session',
      '/admin/logout',
      '/admin/queues',
      '/api/v1/prices',
    ),
    headers: fc.array(header, { minLength: 1, maxLength: 4 }),
    auth: fc.boolean(),
  });
  await assertProperty(
    'random headers',
    request,
    async ({ method, path, headers, auth }) => {
      const sent: Array<[string, string]> = [...(auth ? adminAuth(path) : []), ...headers];
      const body =
        method === 'POST'
          ? Buffer.from(JSON.stringify(path.includes('webhook') ? { url: 'https://h.example/x' } : starsOrder()))
          : undefined;
      if (body && !sent.some(([name]) => name.toLowerCase() === 'content-type'))
        sent.push(['Content-Type', 'application/json']);
      await probe(
        stack,
        'random headers',
        { method, path, headers: sent, body },
        { extra: JSON.stringify(sent).slice(0, 300) },
      );
    },
    80,
  );
});

test('the dashboard session routes: login, session, logout', async () => {
  const origin = fc.constantFrom<Array<[string, string]>>(
    [['Origin', `http://127.0.0.1:${stack.adminPort}`]],
    [['Sec-Fetch-Site', 'same-origin']],
    [['Sec-Fetch-Site', 'cross-site']],
    [['Origin', 'https://evil.example']],
    [],
  );
  const login = fc.record(
    {
      token: fc.oneof(fc.constant(ADMIN_TOKEN), fc.string({ maxLength: 40 }), fc.constant(`${ADMIN_TOKEN} `)),
      operator: fc.oneof(fc.string({ maxLength: 120 }), fc.constantFrom('alice', ' ', '\u0000', 'a'.repeat(101))),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: ['token', 'operator'] },
  );
  await assertProperty(
    'admin login and session',
    fc.record({ origin, login, then: fc.constantFrom('session', 'logout', 'none') }),
    async ({ origin: originHeaders, login: body, then }) => {
      // The login limiter (20 a minute) is a property of its own; here every case reaches the login.
      const limiterKeys = await stack.harness.redis.keys('*admin-login*');
      if (limiterKeys.length > 0) await stack.harness.redis.del(...limiterKeys);
      const response = await probe(stack, 'admin login and session', {
        method: 'POST',
        path: '/admin/login',
        headers: [['Content-Type', 'application/json'], ...originHeaders],
        body: Buffer.from(JSON.stringify(body)),
      });
      const cookie = response.headers['set-cookie']?.split(';')[0];
      if (response.status !== 200 || !cookie || then === 'none') return;
      const csrf = String((JSON.parse(response.text) as { csrf_token: string }).csrf_token);
      await probe(stack, 'admin login and session', {
        method: then === 'session' ? 'GET' : 'POST',
        path: then === 'session' ? '/admin/session' : '/admin/logout',
        headers: [['Cookie', cookie], ['X-CSRF-Token', csrf], ...originHeaders],
      });
    },
    40,
  );
});

test('random paths and methods', async () => {
  const segment = fc.oneof(
    fc.constantFrom(
      'api',
      'v1',
      'v2',
      'purchases',
      'checkouts',
      'admin',
      'queues',
      'docs',
      'openapi.json',
      'submitted',
      'resolve',
      '..',
      '.',
      '',
      '%2e%2e',
      '%2F',
      '%00',
      '%',
      '%zz',
      'api;v1',
      '00000000-0000-4000-8000-000000000000',
    ),
    fc.string({ maxLength: 12 }).map(percentEncode),
  );
  const path = fc.oneof(
    fc.array(segment, { minLength: 1, maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
    fc.constantFrom(
      '/api/v1/purchases/',
      '//api/v1/purchases',
      '/API/V1/PURCHASES',
      '/api/v1/purchases?',
      '/admin',
      '/admin/',
      '/admin/queues/api/queues',
      '/docs/',
      '/docs/swagger-ui.css',
      `/${'a'.repeat(7_000)}`,
      '/api/v1/prices?product=stars&amount=50&amount=60',
      '/api/v1/prices/quote?product[]=stars&amount=50',
      '/api/v1/prices/quote?product=stars&amount=%FF',
    ),
  );
  const method = fc.constantFrom(
    'GET',
    'POST',
    'PUT',
    'PATCH',
    'DELETE',
    'OPTIONS',
    'HEAD',
    'TRACE',
    'PROPFIND',
    'SEARCH',
    'QUERY',
    'LINK',
  );
  await assertProperty(
    'random paths and methods',
    fc.record({ method, path, auth: fc.boolean() }),
    async ({ method: m, path: p, auth }) => {
      const body = ['POST', 'PUT', 'PATCH'].includes(m) ? Buffer.from('{}') : undefined;
      await probe(
        stack,
        'random paths and methods',
        {
          method: m,
          path: p,
          headers: [
            ...(auth ? ([['Authorization', `Bearer ${ADMIN_TOKEN}`]] as Array<[string, string]>) : []),
            ...(body ? ([['Content-Type', 'application/json']] as Array<[string, string]>) : []),
          ],
          body,
        },
        { head: m === 'HEAD' },
      );
    },
    100,
  );
});

describe('found by fuzzing (regressions)', () => {
  const post = (path: string, headers: Array<[string, string]>, body: Buffer) =>
    probe(stack, 'regressions', { method: 'POST', path, headers: [...adminAuth(path), ...headers], body });

  test('U+0000 in a stored text field is a 400 naming the field, not a 500 from PostgreSQL', async () => {
    const response = await post(
      '/admin/api/webhook-endpoints',
      [['Content-Type', 'application/json']],
      Buffer.from('{"url":"https://h.example/x","description":"a\\u0000b"}'),
    );
    expect(response.status).toBe(400);
    expect(response.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'description' }] });
    const query = await probe(stack, 'regressions', {
      method: 'GET',
      path: '/admin/api/purchases?idempotency_key=%00',
      headers: adminAuth('/admin/api'),
    });
    expect(query.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'idempotency_key' }] });
  });

  test.each(['br', 'gzip', 'deflate'])(
    'a %s body that does not decode is a 400 MALFORMED_JSON, not a 500',
    async (encoding) => {
      const response = await post(
        '/api/v1/purchases',
        [
          ['Content-Type', 'application/json'],
          ['Content-Encoding', encoding],
        ],
        Buffer.from([0x1f, 0x8b, 0x08, 0x7b, 0x22]),
      );
      expect(response.status).toBe(400);
      expect(response.error).toMatchObject({ code: 'MALFORMED_JSON', details: [{ field: 'Content-Encoding' }] });
    },
  );

  test('a path parameter that is no valid percent-encoding is a 400, not a 500', async () => {
    for (const path of ['/api/v1/purchases/%', '/api/v1/checkouts/%E0%A4%A', '/admin/api/purchases/%ZZ']) {
      const response = await probe(stack, 'regressions', { method: 'GET', path, headers: adminAuth(path) });
      expect(response.status).toBe(400);
      expect(response.error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'path' }] });
    }
  });

  test('an Expect other than 100-continue is ignored, not a bare 417', async () => {
    const response = await probe(stack, 'regressions', {
      method: 'GET',
      path: '/api/v1/prices',
      headers: [['Expect', 'x-unknown']],
    });
    expect(response.status).toBe(200);
  });

  test('a body cut short of its Content-Length, and bytes that are no HTTP, get the error body', async () => {
    const cut = await probe(
      stack,
      'regressions',
      {
        method: 'POST',
        path: '/api/v1/purchases',
        headers: [
          ['Content-Type', 'application/json'],
          ['Content-Length', '500'],
        ],
        body: Buffer.from('{"product":'),
      },
      { halfClose: true },
    );
    expect(cut.status).toBe(400);
    expect(cut.error?.code).toBe('VALIDATION_FAILED');
    const garbage = await sendRaw(stack.port, Buffer.from('GARBAGE / HTTP/9.9\r\n\r\n'));
    expect(garbage.kind).toBe('answered');
    if (garbage.kind === 'answered') {
      expect(garbage.response.status).toBe(400);
      expect(JSON.parse(garbage.response.text)).toMatchObject({
        code: 'VALIDATION_FAILED',
        details: [{ field: 'request' }],
      });
    }
  });
});
