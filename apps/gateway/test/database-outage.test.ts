/**
 * PostgreSQL restarting or unreachable (found by `npm run chaos`: a status read during
 * `pg_ctlcluster … restart` answered 500): the errors node-postgres raises then map to 503
 * SERVICE_UNAVAILABLE with Retry-After, which tells the client to retry with the same key.
 * The errors here are real ones, raised by a real connect to a closed port and by a real
 * server-side termination of the connection (what a restart does to every open connection).
 */
import { createServer, type AddressInfo } from 'node:net';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@starsgate/db/testing';
import { toAppError } from '../src/http/error-handler';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

function expectUnavailable(error: unknown): void {
  const mapped = toAppError(error);
  expect({ code: mapped.code, status: mapped.status }).toEqual({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  expect(mapped.retryAfterSeconds).toBeGreaterThan(0);
}

it('a connection refused (the server is down) is 503, not 500', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  const pool = new pg.Pool({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  const error = await pool.query('SELECT 1').catch((e: unknown) => e);
  await pool.end();
  expect((error as { code?: string }).code).toBe('ECONNREFUSED');
  expectUnavailable(error);
});

it('a connection the server terminates (a restart) is 503, not 500', async () => {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  client.on('error', () => undefined);
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  await database.pool.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
  const error = await client.query('SELECT 1').catch((e: unknown) => e);
  await client.end().catch(() => undefined);
  expect(error).toBeInstanceOf(Error);
  expectUnavailable(error);
});

it('anything else unknown stays a 500', () => {
  expect(toAppError(new Error('boom')).code).toBe('INTERNAL_ERROR');
  expect(toAppError(Object.assign(new Error('duplicate key'), { code: '23505' })).code).toBe('INTERNAL_ERROR');
});
