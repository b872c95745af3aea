/**
 * Every operation of the gateway's OpenAPI documents (the public one and the operator one), fuzzed with requests
 * generated from its JSON Schemas: valid bodies and queries that reach the deep paths (wallet
 * derivation, the chain, the Fragment simulator, PostgreSQL) and mutations of them. Properties: an
 * answer within the bound, no 5xx, every 4xx with a catalogue code and details, nothing stored
 * for a 4xx.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Address } from '@ton/core';
import { insertSyntheticPurchases } from '@starsgate/db/testing';
import { ADMIN_TOKEN, startFuzzStack, type FuzzStack } from './support/fuzz-stack';
import { assertProperty, printSummary, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-settings';
import { addressArbitrary, BIP39_PHRASE, orderOverrides } from './support/domain-values';
import {
  operationsOf,
  idArbitrary,
  requestArbitrary,
  type OpenApiDocument,
  type Operation,
} from './support/operations';
import { histogramLine, probe, statusHistogram } from './support/probe';
import { jsonRequest } from './support/raw-http';

jest.setTimeout(FUZZ_TEST_TIMEOUT_MS);

let stack: FuzzStack;
let document: OpenApiDocument;
let operations: Operation[];
const ids: Record<string, fc.Arbitrary<string>> = {};

const adminHeaders = (path: string): Array<[string, string]> =>
  path.startsWith('/admin/') ? [['Authorization', `Bearer ${ADMIN_TOKEN}`]] : [];

async function mustAnswer(method: string, path: string, body?: unknown): Promise<any> {
  const outcome = await jsonRequest(stack.portFor(path), method, path, body, adminHeaders(path));
  if (outcome.kind !== 'answered') throw new Error(`${method} ${path}: ${outcome.kind}`);
  return JSON.parse(outcome.response.text || 'null');
}

beforeAll(async () => {
  stack = await startFuzzStack({ env: { RATE_LIMIT_MAX: '1000000', KEY_DERIVATIONS_PER_MINUTE: '1000000' } });
  // The public document and the operator listener's own (docs/security.md, attack 22), walked as one.
  const [publicDocument, operatorDocument] = [
    (await mustAnswer('GET', '/openapi.json')) as OpenApiDocument,
    (await mustAnswer('GET', '/admin/api/openapi.json')) as OpenApiDocument,
  ];
  document = {
    paths: { ...publicDocument.paths, ...operatorDocument.paths },
    components: { schemas: { ...publicDocument.components.schemas, ...operatorDocument.components.schemas } },
  };
  operations = operationsOf(document);
  // Rows for the admin routes to find: synthetic purchases of every status (one in reconciliation),
  // a real purchase and a webhook endpoint.
  await insertSyntheticPurchases(stack.harness.database.pool, 40);
  const wallet = stack.harness.wallet('bip39-0');
  const purchase = await mustAnswer('POST', '/api/v1/purchases', {
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    seed: wallet.seed,
    account_index: wallet.accountIndex,
    idempotency_key: `fuzz-setup-${randomUUID()}`,
  });
  const endpoint = await mustAnswer('POST', '/admin/api/webhook-endpoints', { url: 'https://hooks.example/fuzz' });
  const { rows } = await stack.harness.database.pool.query<{ id: string }>('SELECT id FROM purchases');
  const purchaseIds = [String(purchase.purchase_id), ...rows.map((row) => row.id)];
  ids.purchase_id = idArbitrary(purchaseIds);
  ids.checkout_id = idArbitrary(purchaseIds);
  ids.endpoint_id = idArbitrary([String(endpoint.id)]);
  ids.delivery_id = idArbitrary([randomUUID()]);
});

afterAll(async () => {
  for (const operation of operations ?? []) {
    const name = `${operation.method} ${operation.template}`;
    if (statusHistogram.has(name))
      process.stdout.write(`fuzz api-operations | ${name} statuses: ${histogramLine(name)}\n`);
  }
  printSummary('api-operations');
  await stack?.close();
});

/** CI cases per operation: more where a body reaches deep code. */
const CI_RUNS: Record<string, number> = {
  'POST /api/v1/purchases': 60,
  'POST /api/v1/checkouts': 40,
  'POST /api/v1/wallets/resolve': 25,
  'POST /api/v1/availability/check': 40,
  'POST /admin/api/webhook-endpoints': 40,
  'POST /admin/api/purchases/{purchase_id}/resolve': 40,
  'GET /admin/api/purchases': 40,
};

test('the document lists the public and the admin operations', () => {
  const names = operationsOf(document).map((operation) => `${operation.method} ${operation.template}`);
  expect(names).toEqual(
    expect.arrayContaining(['POST /api/v1/purchases', 'POST /admin/api/purchases/{purchase_id}/resolve']),
  );
  expect(names.length).toBeGreaterThanOrEqual(20);
});

describe('every operation of /openapi.json', () => {
  // The list comes from the served document, so it is read in beforeAll; one test walks it and
  // runs one property per operation (each with its own case count in the summary).
  test('answers generated and mutated requests within the bound, without a 5xx, storing nothing when refused', async () => {
    const overrides = {
      ...orderOverrides(stack.harness.sandbox.demoWallets),
      wallet_address: addressArbitrary(stack.harness.sandbox.demoWallets.map((w) => Address.parse(w.address))),
    };
    for (const operation of operations) {
      const name = `${operation.method} ${operation.template}`;
      const arbitrary = requestArbitrary(operation, document.components.schemas, ids, overrides);
      await assertProperty(
        name,
        arbitrary,
        async (request) => {
          await probe(stack, name, {
            method: request.method,
            path: request.path,
            headers: [
              ...(request.body !== undefined
                ? ([['Content-Type', 'application/json']] as Array<[string, string]>)
                : []),
              ...adminHeaders(request.path),
            ],
            body: request.body === undefined ? undefined : Buffer.from(request.body, 'utf8'),
          });
        },
        CI_RUNS[name] ?? 15,
      );
    }
    // The generated requests got past validation: purchases were accepted, wallets resolved.
    expect(statusHistogram.get('POST /api/v1/purchases')?.get(202) ?? 0).toBeGreaterThan(0);
    expect(statusHistogram.get('POST /api/v1/wallets/resolve')?.get(200) ?? 0).toBeGreaterThan(0);
    expect(statusHistogram.get('POST /api/v1/availability/check')?.get(200) ?? 0).toBeGreaterThan(0);
  });
});

test('the wallet checks behind validation are reached: a 12-word seed with the address of another wallet is WALLET_ADDRESS_MISMATCH', async () => {
  const other = stack.harness.wallet('base64-v5r1');
  const response = await probe(stack, 'sanity', {
    method: 'POST',
    path: '/api/v1/wallets/resolve',
    headers: [['Content-Type', 'application/json']],
    body: Buffer.from(JSON.stringify({ seed: BIP39_PHRASE, wallet_address: other.address, account_index: 0 })),
  });
  expect(response.status).toBe(400);
  expect(response.error?.code).toBe('WALLET_ADDRESS_MISMATCH');
});
