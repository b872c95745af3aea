/**
 * The clients against the gateway's own OpenAPI documents (served by the real app, in-process):
 * - the committed snapshot and the generated TypeScript types equal what the gateway serves now,
 *   for this SDK, the demo checkout page (the public /openapi.json) and the admin UI (the operator
 *   /admin/api/openapi.json): no client declares the API's shapes by hand;
 * - every public route has a method in the TypeScript SDK and in the Python SDK.
 * After a deliberate API change: `npm run openapi:update -w @starsgate/sdk`, then add the methods.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestGateway, type TestGateway } from '@starsgate/gateway/testing';
import { generateTypes } from '../scripts/openapi-to-types';
import { ROUTES, Starsgate } from '../src/index';

const SDK = path.resolve(__dirname, '..');
const SNAPSHOT = path.join(SDK, 'openapi.json');
const GENERATED = path.join(SDK, 'src/generated/openapi-types.ts');
const PYTHON_ROUTES = path.resolve(SDK, '../sdk-python/src/starsgate/_routes.py');
const CHECKOUT_PAGE_TYPES = path.resolve(SDK, '../../apps/sandbox/web/checkout/generated/openapi-types.ts');
const ADMIN_UI_TYPES = path.resolve(SDK, '../../apps/gateway/admin-ui/src/generated/operator-openapi-types.ts');
const ADMIN_TOKEN = 'sdk-contract-admin-token-0123456789abcdef';
const UPDATE = process.env.UPDATE_OPENAPI_SNAPSHOT === '1';

/** A file's text as the repository's Prettier writes it (its CLI: jest cannot load Prettier's ESM core). */
function prettierFormat(file: string, text: string): string {
  const cli = require.resolve('prettier/bin/prettier.cjs');
  return execFileSync(process.execPath, [cli, '--stdin-filepath', file], { input: text, encoding: 'utf8' });
}

const generatedSource = (document: object): string => prettierFormat(GENERATED, generateTypes(document));
const operatorSource = (document: object): string =>
  prettierFormat(
    ADMIN_UI_TYPES,
    generateTypes(document, { source: '/admin/api/openapi.json', operationResponses: true }),
  );

/** The public API: `/api/…` routes. Admin routes (`/admin/api/…`), probes and metrics are not the SDKs' business. */
function publicRoutes(document: { paths: Record<string, Record<string, unknown>> }): string[] {
  const methods = ['get', 'post', 'put', 'patch', 'delete'];
  return Object.entries(document.paths)
    .filter(([route]) => route.startsWith('/api/'))
    .flatMap(([route, item]) =>
      Object.keys(item)
        .filter((method) => methods.includes(method))
        .map((method) => `${method.toUpperCase()} ${route}`),
    )
    .sort();
}

/** The Python map, read from its dependency-free module without installing the package. */
function pythonRoutes(): Record<string, string> {
  const script = [
    'import importlib.util, json, sys',
    "spec = importlib.util.spec_from_file_location('routes', sys.argv[1])",
    'module = importlib.util.module_from_spec(spec)',
    'spec.loader.exec_module(module)',
    'print(json.dumps(module.ROUTES))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, PYTHON_ROUTES], { encoding: 'utf8' })) as Record<
    string,
    string
  >;
}

describe('SDKs against /openapi.json', () => {
  let gateway: TestGateway;
  let document: { paths: Record<string, Record<string, unknown>>; components: { schemas: Record<string, never> } };
  let operatorDocument: object;

  beforeAll(async () => {
    gateway = await createTestGateway({ STARSGATE_ADMIN_TOKENS: ADMIN_TOKEN });
    const response = await request(gateway.app).get('/openapi.json').expect(200);
    document = response.body as typeof document;
    const operator = await request(gateway.adminApp)
      .get('/admin/api/openapi.json')
      .set('Authorization', `Bearer ${ADMIN_TOKEN}`)
      .expect(200);
    operatorDocument = operator.body as object;
    if (UPDATE) {
      writeFileSync(SNAPSHOT, prettierFormat(SNAPSHOT, JSON.stringify(document, null, 2)));
      writeFileSync(GENERATED, generatedSource(document));
      writeFileSync(CHECKOUT_PAGE_TYPES, generatedSource(document));
      writeFileSync(ADMIN_UI_TYPES, operatorSource(operatorDocument));
    }
  });
  afterAll(() => gateway.close());

  it('the committed snapshot is what the gateway serves (run openapi:update after an API change)', () => {
    expect(JSON.parse(readFileSync(SNAPSHOT, 'utf8'))).toEqual(document);
  });

  it('the generated TypeScript types are generated from that document', () => {
    expect(readFileSync(GENERATED, 'utf8')).toBe(generatedSource(document));
  });

  it("the demo checkout page's types are generated from that document", () => {
    expect(readFileSync(CHECKOUT_PAGE_TYPES, 'utf8')).toBe(generatedSource(document));
  });

  it("the admin UI's types are generated from the operator document", () => {
    expect(readFileSync(ADMIN_UI_TYPES, 'utf8')).toBe(operatorSource(operatorDocument));
  });

  it('every public route has a TypeScript SDK method', () => {
    const routes = publicRoutes(document);
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const missing = routes.filter((route) => !(route in ROUTES));
    expect(missing).toEqual([]);
    for (const route of routes) {
      const method = ROUTES[route as keyof typeof ROUTES];
      expect(typeof Starsgate.prototype[method]).toBe('function');
    }
  });

  it('every public route has a Python SDK method', () => {
    const routes = publicRoutes(document);
    const python = pythonRoutes();
    expect(routes.filter((route) => !(route in python))).toEqual([]);
    // Same map in both SDKs: snake_case there, camelCase here.
    for (const [route, method] of Object.entries(ROUTES))
      expect([route, python[route]?.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())]).toEqual([route, method]);
  });

  it('admin routes are not public API', () => {
    expect(publicRoutes({ paths: { '/admin/api/purchases': { get: {} }, '/api/v1/x': { get: {} } } })).toEqual([
      'GET /api/v1/x',
    ]);
  });
});
