/**
 * The checkout routes' HTTP surface without a chain: the OpenAPI document describes every shape
 * (all references resolve), a seed is refused before anything else, and CORS answers only the
 * listed origins.
 */
import request from 'supertest';
import { createTestGateway, type TestGateway } from './support/test-gateway';

let gw: TestGateway;

beforeAll(async () => {
  gw = await createTestGateway({ CORS_ALLOWED_ORIGINS: 'https://shop.example, https://mini.app.example/' });
});

afterAll(() => gw.close());

/** Every `$ref` of a JSON document. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => refs(item, found));
  else if (value && typeof value === 'object')
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') found.push(child);
      else refs(child, found);
    }
  return found;
}

interface OpenApi {
  paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
  components: { schemas: Record<string, unknown> };
}

test('the OpenAPI document describes the three checkout paths, and every reference resolves', async () => {
  const document = (await request(gw.app).get('/openapi.json')).body as OpenApi;
  expect(Object.keys(document.paths['/api/v1/checkouts']!)).toEqual(['post']);
  expect(Object.keys(document.paths['/api/v1/checkouts/{checkout_id}']!)).toEqual(['get']);
  expect(Object.keys(document.paths['/api/v1/checkouts/{checkout_id}/submitted']!)).toEqual(['post']);
  for (const name of [
    'CreateCheckoutRequest',
    'CheckoutAccepted',
    'Checkout',
    'TonConnectTransaction',
    'SubmitCheckoutRequest',
  ])
    expect(document.components.schemas[name]).toBeDefined();
  for (const ref of refs(document)) {
    expect(ref).toMatch(/^#\/components\/schemas\//);
    expect({ ref, defined: document.components.schemas[ref.split('/').pop()!] !== undefined }).toEqual({
      ref,
      defined: true,
    });
  }
});

test('a seed in a checkout is SEED_NOT_ACCEPTED even when the rest of the body is invalid', async () => {
  const res = await request(gw.app)
    .post('/api/v1/checkouts')
    .send({ mnemonic: 'word '.repeat(24), product: 'x' });
  expect(res.status).toBe(400);
  expect((res.body as { code: string }).code).toBe('SEED_NOT_ACCEPTED');
});

test('a submitted body must carry the boc only', async () => {
  const res = await request(gw.app)
    .post('/api/v1/checkouts/00000000-0000-4000-8000-000000000000/submitted')
    .send({ boc: 'te6c', extra: 1 });
  expect(res.status).toBe(400);
  expect((res.body as { code: string }).code).toBe('UNKNOWN_FIELD');
});

test('CORS: a listed origin gets its preflight and headers, another origin none', async () => {
  const preflight = await request(gw.app)
    .options('/api/v1/checkouts')
    .set('Origin', 'https://mini.app.example')
    .set('Access-Control-Request-Method', 'POST');
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('https://mini.app.example');
  expect(preflight.headers['access-control-allow-headers']).toContain('Content-Type');

  const read = await request(gw.app)
    .get('/api/v1/checkouts/00000000-0000-4000-8000-000000000000')
    .set('Origin', 'https://shop.example');
  expect(read.status).toBe(404);
  expect(read.headers['access-control-allow-origin']).toBe('https://shop.example');

  const stranger = await request(gw.app)
    .options('/api/v1/checkouts')
    .set('Origin', 'https://evil.example')
    .set('Access-Control-Request-Method', 'POST');
  expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
});
