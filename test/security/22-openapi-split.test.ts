/**
 * Attack 22 (docs/security.md): the public `/openapi.json` listed every `/admin/api` route (and
 * `/metrics`), a map of the operator surfaces for anyone on the public port. The public document
 * now describes the public port only; the operator API's document is on the operator listener,
 * behind the admin token.
 */
import { startStack, type RunningStack } from '../support/running-stack';

interface OpenApi {
  paths: Record<string, unknown>;
  components: { schemas: Record<string, unknown>; securitySchemes?: Record<string, unknown> };
}

describe('OpenAPI documents on a running stack', () => {
  let stack: RunningStack;
  beforeAll(async () => {
    stack = await startStack();
  }, 240_000);
  afterAll(() => stack?.stop());

  it('the public document names no operator route, schema or credential', async () => {
    const document = (await (await fetch(`${stack.gatewayUrl}/openapi.json`)).json()) as OpenApi;
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/v1/purchases', '/api/v1/checkouts']));
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/v1/'))).toEqual(['/livez', '/readyz']);
    expect(JSON.stringify(document)).not.toMatch(/\/admin|adminToken|AdminPurchase|WebhookEndpoint|\/metrics/);
  });

  it('the operator document is on the operator listener, behind the admin token, and lists the operator API', async () => {
    const url = `${stack.adminUrl}/admin/api/openapi.json`;
    expect((await fetch(url)).status).toBe(401);
    const answer = await fetch(url, { headers: { authorization: `Bearer ${stack.adminToken}` } });
    expect(answer.status).toBe(200);
    const document = (await answer.json()) as OpenApi;
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining(['/admin/api/purchases', '/admin/api/purchases/{purchase_id}/resolve', '/metrics']),
    );
    expect(paths.filter((path) => path.startsWith('/api/'))).toEqual([]);
    expect(document.components.securitySchemes).toHaveProperty('adminToken');
    // The public port does not serve it.
    const onPublic = await fetch(`${stack.gatewayUrl}/admin/api/openapi.json`, {
      headers: { authorization: `Bearer ${stack.adminToken}` },
    });
    expect(onPublic.status).toBe(404);
  });
});
