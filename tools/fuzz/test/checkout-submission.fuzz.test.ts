/**
 * The deepest public path: `POST /api/v1/checkouts/:id/submitted` on a checkout the real worker
 * prepared (Fragment simulator order, TON Connect request) and that waits for its signature. The
 * fuzzer submits BOCs signed by the payer's own key for the wrong seqno or deadline, other
 * messages, and truncated, bit-flipped and foreign ones, through the gateway: each is refused with
 * its code (or accepted once, for the one honest BOC), never a 5xx, and a refused one stores
 * nothing (no signed_externals row, no status change, no job).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { beginCell, Cell, loadMessage, storeMessage } from '@ton/core';
import {
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  requestMessages,
  type SendTransactionRequest,
} from '@starsgate/ton';
import { startFuzzStack, type FuzzStack } from './support/fuzz-stack';
import { assertProperty, printSummary, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-settings';
import { bocArbitrary } from './support/domain-values';
import { histogramLine, probe, statusHistogram } from './support/probe';
import { jsonRequest } from './support/raw-http';

jest.setTimeout(FUZZ_TEST_TIMEOUT_MS);

const PROPERTY = 'POST /api/v1/checkouts/{id}/submitted (prepared checkout)';
let stack: FuzzStack;
let checkoutId: string;
let signed: string[];

async function getJson(path: string): Promise<any> {
  const outcome = await jsonRequest(stack.port, 'GET', path);
  if (outcome.kind !== 'answered') throw new Error(`GET ${path}: ${outcome.kind}`);
  return JSON.parse(outcome.response.text);
}

beforeAll(async () => {
  stack = await startFuzzStack({
    worker: true,
    // Every case is submitted to one checkout: its own submission limit (attack 17) has its own test.
    env: { RATE_LIMIT_MAX: '1000000', KEY_DERIVATIONS_PER_MINUTE: '1000000', CHECKOUT_SUBMISSIONS_PER_MINUTE: '1000' },
    fragment: { validitySeconds: 280 },
  });
  const payer = stack.harness.sandbox.demoWallets.find((wallet) => wallet.deployed && wallet.version === 'V5R1')!;
  const created = await jsonRequest(stack.port, 'POST', '/api/v1/checkouts', {
    product: 'stars',
    username: '@alice',
    amount: 50,
    payment_method: 'gram',
    payer_address: payer.address,
    idempotency_key: `fuzz-checkout-${randomUUID()}`,
  });
  if (created.kind !== 'answered' || created.response.status !== 202)
    throw new Error(`checkout not created: ${JSON.stringify(created)}`);
  checkoutId = String(JSON.parse(created.response.text).checkout_id);
  let checkout: { status: string; transaction?: SendTransactionRequest };
  const deadline = Date.now() + 60_000;
  do {
    checkout = await getJson(`/api/v1/checkouts/${checkoutId}`);
    if (Date.now() > deadline) throw new Error(`checkout never prepared: ${JSON.stringify(checkout)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (checkout.status === 'preparing');
  expect(checkout.status).toBe('awaiting_signature');
  // From here only the gateway writes: a refused submission must leave everything as it is.
  await stack.harness.stopWorker();

  const transaction = checkout.transaction!;
  const keys = await deriveKeyPair(payer.seed, payer.format, payer.accountIndex);
  const wallet = createWalletContract('V5R1', keys.publicKey, 'mainnet');
  const seqno = await stack.harness.chain.getSeqno(wallet.address);
  const messages = requestMessages(transaction);
  const sign = async (changes: { seqno?: number; validUntil?: number; value?: bigint; body?: Cell }) =>
    (
      await buildSignedExternal({
        wallet,
        secretKey: keys.secretKey,
        seqno: changes.seqno ?? seqno,
        validUntil: changes.validUntil ?? transaction.validUntil,
        messages: messages.map((m) => ({ ...m, value: changes.value ?? m.value, body: changes.body ?? m.body })),
      })
    ).boc;
  // Signed by the payer, each wrong in one way; the honest one last among the examples.
  signed = await Promise.all([
    sign({ seqno: seqno + 1 }),
    sign({ validUntil: transaction.validUntil + 60 }),
    sign({ validUntil: Math.floor(Date.now() / 1000) - 10 }),
    sign({ value: 1n }),
    sign({ body: beginCell().storeUint(0, 32).storeStringTail('50 Telegram Stars \n\nRef#WrongRef1').endCell() }),
    sign({}),
  ]);
});

/** The honest external with one bit of its body flipped, re-encoded as a valid BOC (so the signature check runs). */
function bodyBitFlips(honest: string): fc.Arbitrary<string> {
  const message = loadMessage(Cell.fromBase64(honest).beginParse());
  const body = message.body;
  return fc.nat(body.bits.length - 1).map((flip) => {
    const builder = beginCell();
    for (let i = 0; i < body.bits.length; i += 1) builder.storeBit(i === flip ? !body.bits.at(i) : body.bits.at(i));
    for (const ref of body.refs) builder.storeRef(ref);
    return beginCell()
      .store(storeMessage({ ...message, body: builder.endCell() }))
      .endCell()
      .toBoc()
      .toString('base64');
  });
}

/** Another spelling of the same message (no padding, base64url, trailing bytes) is the honest BOC. */
function sameMessage(boc: string, honest: string): boolean {
  try {
    const [root] = Cell.fromBoc(Buffer.from(boc, 'base64'));
    return root !== undefined && root.hash().equals(Cell.fromBase64(honest).hash());
  } catch {
    return false;
  }
}

afterAll(async () => {
  process.stdout.write(`fuzz checkout-submission | ${PROPERTY} statuses: ${histogramLine(PROPERTY)}\n`);
  printSummary('checkout-submission');
  await stack?.close();
});

test('signed, mutated and foreign BOCs: refused with a code, never a 5xx, nothing stored', async () => {
  const honest = signed.at(-1)!;
  const submissions = fc.oneof(
    { arbitrary: fc.constantFrom(...signed.slice(0, -1)), weight: 2 },
    // Mutations of the honest BOC: a flipped bit breaks its signature, a cut its parsing.
    { arbitrary: bocArbitrary([honest]).filter((boc) => !sameMessage(boc, honest)), weight: 6 },
    { arbitrary: bodyBitFlips(honest), weight: 4 },
    { arbitrary: fc.jsonValue({ maxDepth: 1 }).map((value) => ({ boc: value })), weight: 1 },
  );
  await assertProperty(
    PROPERTY,
    submissions,
    async (submission) => {
      const body = typeof submission === 'string' ? { boc: submission } : submission;
      const response = await probe(stack, PROPERTY, {
        method: 'POST',
        path: `/api/v1/checkouts/${checkoutId}/submitted`,
        headers: [['Content-Type', 'application/json']],
        body: Buffer.from(JSON.stringify(body)),
      });
      expect(response.status).toBeGreaterThanOrEqual(400);
    },
    60,
  );
  // Every refusal was about the BOC (or the body), by its own code.
  const codes = histogramLine(PROPERTY);
  expect(codes).toContain('CHECKOUT_BAD_SIGNATURE');
  expect(codes).toContain('CHECKOUT_BOC_INVALID');

  // The honest BOC, after all of that, is still accepted: refusals changed nothing.
  const accepted = await probe(stack, 'honest submission', {
    method: 'POST',
    path: `/api/v1/checkouts/${checkoutId}/submitted`,
    headers: [['Content-Type', 'application/json']],
    body: Buffer.from(JSON.stringify({ boc: honest })),
  });
  expect(accepted.status).toBe(202);
  expect(statusHistogram.get(PROPERTY)?.get(202)).toBeUndefined();
});
