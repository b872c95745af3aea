/**
 * The pipeline's open counts (the dashboard's `/admin/api/pipeline`, the worker's open-purchases
 * gauges) hold the statuses something still waits on: a checkout that expired unpaid is final
 * and is not counted, however long it stays.
 */
import { randomUUID } from 'node:crypto';
import { OPEN_STATUSES } from '@starsgate/domain';
import { PipelineReads } from '../src';
import { createTestDatabase, type TestDatabase } from '../src/testing';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

async function insertRow(status: string, mode: 'server_signed' | 'client_signed'): Promise<string> {
  const id = randomUUID();
  await database.pool.query(
    `INSERT INTO purchases (id, idempotency_key, idempotency_scope, request_fingerprint, fingerprint_key_id,
       status, mode, product, username, amount, payment_method, seed_format)
     VALUES ($1::uuid, $1::text, 'payer', 'fingerprint', 't1', $2, $3, 'stars', '@alice', 50, 'gram', $4)`,
    [id, status, mode, mode === 'server_signed' ? 'base64_key' : null],
  );
  return id;
}

describe('PipelineReads.openStatuses', () => {
  it('counts every status still waiting on the worker or an operator, and no final one (expired included)', async () => {
    await insertRow('awaiting_signature', 'client_signed');
    await insertRow('expired', 'client_signed');
    await insertRow('expired', 'client_signed');
    await insertRow('confirming', 'server_signed');
    await insertRow('completed', 'server_signed');
    await insertRow('failed', 'server_signed');
    const reconciliation = await insertRow('reconciliation_required', 'server_signed');

    const open = await new PipelineReads(database.db).openStatuses();
    expect(open.map((entry) => [entry.status, entry.count])).toEqual([
      ['awaiting_signature', 1],
      ['confirming', 1],
      ['reconciliation_required', 1],
    ]);
    expect(open.find((entry) => entry.status === 'reconciliation_required')?.oldestId).toBe(reconciliation);
    expect(open.every((entry) => OPEN_STATUSES.includes(entry.status))).toBe(true);
  });
});
