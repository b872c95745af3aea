import request from 'supertest';
import { waitFor } from '@starsgate/platform/testing';
import { SERVICE_VERSION } from '@starsgate/platform';
import { createTestGateway, type TestGateway } from './support/test-gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await createTestGateway();
});
afterAll(() => gateway.close());

describe('operations endpoints', () => {
  it('/livez answers while the process runs, with the release it runs', async () => {
    expect(SERVICE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
    expect((await request(gateway.app).get('/livez')).body).toEqual({ status: 'ok', version: SERVICE_VERSION });
  });

  it('answers /livez and /readyz on the operator listener too, where the pods are probed', async () => {
    expect((await request(gateway.adminApp).get('/livez')).body).toEqual({ status: 'ok', version: SERVICE_VERSION });
    expect((await request(gateway.adminApp).get('/readyz')).status).toBe(200);
  });

  it('/readyz checks PostgreSQL, migrations and Redis, and is 503 while draining', async () => {
    const ready = await request(gateway.app).get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).toEqual({ postgres: 'ok', migrations: 'ok', redis: 'ok' });
    gateway.state.draining = true;
    const draining = await request(gateway.app).get('/readyz');
    expect(draining.status).toBe(503);
    expect(draining.body.status).toBe('draining');
    gateway.state.draining = false;
  });

  it('/readyz is 503 when migrations are missing', async () => {
    await gateway.database.pool.query('ALTER TABLE drizzle.__drizzle_migrations RENAME TO __moved');
    try {
      // A check answers for a second (attack 25): the first one after the change sees it.
      const response = await waitFor(
        async () => {
          const answer = await request(gateway.app).get('/readyz');
          return answer.status === 503 && answer;
        },
        { what: '/readyz to turn 503' },
      );
      expect(response.body.checks.migrations).toBe('fail');
    } finally {
      await gateway.database.pool.query('ALTER TABLE drizzle.__moved RENAME TO __drizzle_migrations');
    }
  });

  it('/openapi.json is OpenAPI 3.1 built from the domain schemas', async () => {
    const response = await request(gateway.app).get('/openapi.json');
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toEqual(
      expect.arrayContaining(['/api/v1/purchases', '/api/v1/purchases/{purchase_id}']),
    );
    const schema = response.body.components.schemas.CreatePurchaseRequest;
    expect(schema.properties.amount.type).toBe('integer');
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.idempotency_key.pattern).toBe('^[\\x20-\\x7E]{1,128}$');
  });

  it('/docs serves Swagger UI under a Content-Security-Policy that admits only its own origin', async () => {
    const response = await request(gateway.app).get('/docs/').redirects(1);
    expect(response.status).toBe(200);
    expect(response.text).toContain('swagger-ui');
    expect(response.headers['content-security-policy']).toContain("script-src 'self';");
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('/metrics is on the operator listener only, and exposes request durations by route template', async () => {
    await request(gateway.app).get('/api/v1/purchases/00000000-0000-4000-8000-000000000000');
    expect((await request(gateway.app).get('/metrics')).status).toBe(404);
    const response = await request(gateway.adminApp).get('/metrics');
    expect(response.text).toContain(
      'http_request_duration_seconds_bucket{le="0.001",method="GET",route="/api/v1/purchases/:purchase_id",status_class="4xx"}',
    );
    expect(response.text).not.toContain('00000000-0000-4000-8000-000000000000');
  });
});
