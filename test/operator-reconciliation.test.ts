/**
 * Reconciliation cases produced by sandbox faults on the real worker, chain and Fragment
 * simulator, settled through the operator API (the real gateway app on the same database) with
 * real sandbox transactions as evidence: accepted only for the transaction that paid the case's
 * Fragment request, refused for a wrong receiver, amount or payload, for a purchase that is not a
 * case, and for `failed` while the payment executed or may still land.
 */
import request from 'supertest';
import { Address, beginCell, Cell } from '@ton/core';
import { buildSignedExternal, createWalletContract, deriveKeyPair, type OutgoingMessage } from '@starsgate/ton';
import { adminTokenId, type CreatedGateway } from '@starsgate/gateway';
import { WorkerHarness, type PurchaseInput } from '@starsgate/worker/testing';
import { operatorGateway } from './support/operator-gateway';

jest.setTimeout(240_000);

const TOKEN = 'operator-token-0123456789abcdefghij';
let h: WorkerHarness;
let gateway: CreatedGateway;

beforeAll(async () => {
  h = await WorkerHarness.start({
    fragment: { validitySeconds: 20 },
    env: { CONFIRMING_MAX_AGE_MS: '2500', VALID_UNTIL_MARGIN_MS: '2000' },
  });
  gateway = operatorGateway(h, TOKEN);
});

afterAll(async () => {
  await h?.close();
});

const resolve = (id: string, body: Record<string, unknown>) =>
  request(gateway.adminApp)
    .post(`/admin/api/purchases/${id}/resolve`)
    .set('Authorization', `Bearer ${TOKEN}`)
    .send(body);

function order(overrides: Partial<PurchaseInput> = {}): PurchaseInput {
  return {
    product: 'stars',
    username: '@dave',
    amount: 50,
    payment_method: 'gram',
    seed: h.wallet('base64-v5r1').seed,
    ...overrides,
  };
}

/** Signs and broadcasts `messages` from the demo Base64-key wallet; answers its transaction's hash once landed. */
async function sendFromPayer(messages: OutgoingMessage[]): Promise<string> {
  const keys = await deriveKeyPair(h.wallet('base64-v5r1').seed, 'base64_key');
  const wallet = createWalletContract('V5R1', keys.publicKey, 'mainnet');
  const seqno = await h.chain.getSeqno(wallet.address);
  const signed = await buildSignedExternal({
    wallet,
    secretKey: keys.secretKey,
    seqno,
    validUntil: Math.floor(Date.now() / 1000) + 60,
    messages,
  });
  await h.chain.sendBoc(signed.boc);
  for (let i = 0; i < 200; i += 1) {
    const scan = await h.chain.findTransactionByNormalizedHash(wallet.address, signed.normalizedHash);
    if (scan.outcome === 'found') return scan.tx.hash().toString('hex');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the transfer did not land');
}

describe('a paid case Fragment never reported delivered', () => {
  let caseId: string;
  let paidHash: string;
  let request_: { address: string; amount: string; payload: string };

  beforeAll(async () => {
    h.sandbox.fragment!.configure({ faults: { done: 'never' } });
    const created = await h.createPurchase(order());
    const row = await h.waitFor(created.id);
    h.sandbox.fragment!.configure({ faults: { done: 'normal' } });
    expect({ status: row.status, code: (row.error as { code: string }).code }).toEqual({
      status: 'reconciliation_required',
      code: 'DELIVERY_UNCONFIRMED',
    });
    caseId = row.id;
    paidHash = row.transactionHash!;
    request_ = (row.paymentRequest as { message: typeof request_ }).message;
  });

  test('failed is refused: the chain shows the payment executed', async () => {
    const res = await resolve(caseId, { outcome: 'failed', reason: 'looks unpaid', operator: 'alice' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'PAYMENT_EXECUTED' });
    expect(res.body.details[0].message).toContain(paidHash);
  });

  test.each([
    [
      'receiver',
      () => ({
        to: Address.parse(h.wallet('bip39-0').rawAddress),
        value: BigInt(request_.amount),
        body: Cell.fromBoc(Buffer.from(request_.payload, 'base64url'))[0]!,
      }),
    ],
    [
      'amount',
      () => ({
        to: Address.parse(request_.address),
        value: BigInt(request_.amount) - 1n,
        body: Cell.fromBoc(Buffer.from(request_.payload, 'base64url'))[0]!,
      }),
    ],
    [
      'payload',
      () => ({
        to: Address.parse(request_.address),
        value: BigInt(request_.amount),
        body: beginCell().storeUint(0, 32).storeStringTail('not the Ref# Fragment asked for').endCell(),
      }),
    ],
  ])('completed with a real transaction paying the wrong %s: 409 naming it', async (field, message) => {
    const hash = await sendFromPayer([{ ...message(), bounce: false }]);
    const res = await resolve(caseId, {
      outcome: 'completed',
      reason: 'paid',
      operator: 'alice',
      transaction_hash: hash,
    });
    expect({ status: res.status, code: res.body.code, field: res.body.details[0].field }).toEqual({
      status: 409,
      code: 'RESOLUTION_EVIDENCE_MISMATCH',
      field,
    });
  });

  test('completed with a hash that is no transaction of the payer wallet: 409', async () => {
    const res = await resolve(caseId, {
      outcome: 'completed',
      reason: 'paid',
      operator: 'alice',
      transaction_hash: 'ab'.repeat(32),
    });
    expect({ status: res.status, code: res.body.code, field: res.body.details[0].field }).toEqual({
      status: 409,
      code: 'RESOLUTION_EVIDENCE_MISMATCH',
      field: 'transaction_hash',
    });
    expect((await h.find(caseId)).status).toBe('reconciliation_required');
  });

  test('completed with the transaction that paid it (Base64 accepted): settled, audited, in the timeline', async () => {
    const base64 = Buffer.from(paidHash, 'hex').toString('base64');
    const res = await resolve(caseId, {
      outcome: 'completed',
      reason: 'delivery checked on fragment.com',
      operator: 'alice',
      transaction_hash: base64,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', transaction_hash: paidHash });
    const last = (res.body.events as Array<Record<string, unknown>>).at(-1);
    expect(last).toMatchObject({
      type: 'operator',
      from_status: 'reconciliation_required',
      to_status: 'completed',
      actor: `token:${adminTokenId(TOKEN, gateway.deps.fingerprints)}`,
      reason: 'delivery checked on fragment.com',
      details: { outcome: 'completed', operator: 'alice', transaction_hash: paidHash },
    });
    expect(res.body.evidence.resolution).toMatchObject({
      outcome: 'completed',
      actor: `token:${adminTokenId(TOKEN, gateway.deps.fingerprints)}`,
      operator: 'alice',
    });
    const publicView = await request(gateway.app).get(`/api/v1/purchases/${caseId}`);
    expect(publicView.body).toMatchObject({ status: 'completed', transaction_hash: paidHash });
    const secret = await h.database.pool.query(
      'SELECT ciphertext, wrapped_key FROM wallet_secrets WHERE purchase_id = $1',
      [caseId],
    );
    expect(secret.rows[0]).toEqual({ ciphertext: null, wrapped_key: null });
    expect(JSON.stringify(res.body)).not.toContain(h.wallet('base64-v5r1').seed);

    const again = await resolve(caseId, { outcome: 'failed', reason: 'oops', operator: 'bob' });
    expect({ status: again.status, code: again.body.code }).toEqual({
      status: 409,
      code: 'PURCHASE_NOT_IN_RECONCILIATION',
    });
  });
});

describe('an unpaid case: the chain could not answer before the deadline', () => {
  test('failed is refused while the signed payment may still land, accepted once it provably cannot', async () => {
    // The external is accepted but never included, and the chain API then fails every call.
    h.sandbox.chain.faults.set({ dropExternals: { rate: 1 } });
    const created = await h.createPurchase(order({ seed: h.wallet('ton24-v4r2').seed, username: '@erin' }));
    await h.waitFor(created.id, ['submitted', 'confirming']);
    h.sandbox.chain.faults.set({ dropExternals: { rate: 1 }, http5xx: { rate: 1 } });
    const row = await h.waitFor(created.id);
    h.sandbox.chain.faults.set({});
    expect({ status: row.status, code: (row.error as { code: string }).code }).toEqual({
      status: 'reconciliation_required',
      code: 'OUTCOME_UNKNOWN',
    });

    const early = await resolve(row.id, { outcome: 'failed', reason: 'nothing left', operator: 'alice' });
    expect({ status: early.status, code: early.body.code }).toEqual({ status: 409, code: 'PAYMENT_MAY_STILL_LAND' });

    await new Promise((resolve) => setTimeout(resolve, row.validUntil! * 1000 + 2_500 - Date.now()));
    const res = await resolve(row.id, { outcome: 'failed', reason: 'expired unexecuted', operator: 'alice' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'failed', evidence: { resolution: { found_on_chain: false } } });
    expect(res.body.events.at(-1)).toMatchObject({
      actor: `token:${adminTokenId(TOKEN, gateway.deps.fingerprints)}`,
      to_status: 'failed',
      details: { operator: 'alice' },
    });
    expect(h.paymentsByRef(row.walletAddress!).get(row.fragmentRef!)).toBeUndefined();
  });
});
