import { randomBytes } from 'node:crypto';
import { Address, Cell } from '@ton/core';
import type { FragmentTransaction } from '@starsgate/fragment';
import { buildJettonTransferBody, parseJettonTransferBody } from '@starsgate/ton';
import { buildCommentCell, buildJettonTransfer, encodePayload } from '@starsgate/sandbox/fragment';
import { checkPaymentPolicy, type PolicyInput } from '../src/purchases/policy/payment-policy';

const addr = () => new Address(0, randomBytes(32));
const payer = addr();
const starsWallet = addr();
const payerJettonWallet = addr();
const config: PolicyInput['config'] = {
  fragmentReceivingAddresses: [starsWallet.toRawString()],
  priceToleranceBps: 100,
  maxSpendGramNano: 10_000_000_000n,
  maxSpendUsdtUnits: 100_000_000n,
  jettonGasAttachNano: 100_000_000n,
  minValiditySeconds: 15,
  maxValiditySeconds: 900,
  maxPriceToBookPercent: 150,
  fragmentFromMustMatch: false,
  network: 'mainnet',
};
const strict: PolicyInput['config'] = { ...config, fragmentFromMustMatch: true };
const OWN_QUERY_ID = 0x5eed_0000_0001n;
const NOW = 1_800_000_000;
const account = {
  address: payer.toRawString(),
  chain: '-239' as const,
  walletStateInit: 'te6',
  publicKey: '00'.repeat(32),
};
const comment = (text = '50 Telegram Stars \n\nRef#ABCDE1234') => buildCommentCell(text);

function gramTx(
  overrides: Partial<FragmentTransaction['messages'][0]> = {},
  tx: Partial<FragmentTransaction> = {},
): FragmentTransaction {
  return {
    validUntil: NOW + 300,
    from: payer.toRawString(),
    messages: [
      {
        address: starsWallet.toString({ bounceable: false }),
        amount: '441800000',
        payload: encodePayload(comment()),
        ...overrides,
      },
    ],
    confirmMethod: 'confirmReq',
    confirmParams: { id: 'req' },
    ...tx,
  };
}

function input(transaction: FragmentTransaction, extra: Partial<PolicyInput> = {}): PolicyInput {
  return {
    config,
    product: 'stars',
    quantity: 50,
    paymentMethod: 'gram',
    payer,
    initAmount: '0.4418',
    transaction,
    account,
    nowSeconds: NOW,
    ownQueryId: OWN_QUERY_ID,
    bookPrice: 441_800_000n,
    ...extra,
  };
}

const checks = (result: ReturnType<typeof checkPaymentPolicy>) =>
  result.ok ? [] : result.violations.map((v) => v.check);

test('an exact Fragment request passes and keeps the payload byte for byte', () => {
  const tx = gramTx();
  const result = checkPaymentPolicy(input(tx));
  expect(result.ok).toBe(true);
  if (result.ok)
    expect(result.request).toMatchObject({
      currency: 'GRAM',
      ref: 'ABCDE1234',
      quote: '441800000',
      message: { amount: '441800000', payload: tx.messages[0]!.payload, address: starsWallet.toRawString() },
    });
});

test.each([
  ['destination off the allow-list', gramTx({ address: addr().toString() }), ['destination']],
  ['amount beyond the tolerance', gramTx({ amount: '450000000' }), ['amount']],
  [
    'payload for another quantity',
    gramTx({ payload: encodePayload(comment('100 Telegram Stars \n\nRef#ABCDE1234')) }),
    ['payload_quantity'],
  ],
  [
    'payload for another product',
    gramTx({ payload: encodePayload(comment('Telegram Premium for 3 months \n\nRef#ABCDE1234')) }),
    ['payload_product', 'payload_quantity'],
  ],
  ["a payload that is not Fragment's comment", gramTx({ payload: encodePayload(comment('hello')) }), ['payload']],
  ['no payload', gramTx({ payload: undefined }), ['payload']],
  ['a StateInit', gramTx({ stateInit: 'te6' }), ['state_init']],
  ['validUntil under 15 s away', gramTx({}, { validUntil: NOW + 10 }), ['valid_until']],
  ['validUntil past MAX_VALIDITY_SECONDS', gramTx({}, { validUntil: NOW + 901 }), ['valid_until']],
  ['two messages', { ...gramTx(), messages: [gramTx().messages[0]!, gramTx().messages[0]!] }, ['message_count']],
])('GRAM: %s is rejected', (_label, tx, expected) => {
  expect(checks(checkPaymentPolicy(input(tx)))).toEqual(expected);
});

test("GRAM: Fragment asking more than MAX_PRICE_TO_BOOK_PERCENT of the price book's price is rejected; at the limit it passes", () => {
  // 0.4418 GRAM asked: 150 % of 0.294533… is the limit.
  expect(checks(checkPaymentPolicy(input(gramTx(), { bookPrice: 294_533_333n })))).toEqual(['price_book']);
  expect(checkPaymentPolicy(input(gramTx(), { bookPrice: 294_533_334n })).ok).toBe(true);
});

test("GRAM: a from naming another wallet (the one linked to the Fragment account) is recorded, and the payer signs Fragment's message as it is", () => {
  const linked = addr();
  const tx = gramTx({}, { from: linked.toString() });
  const result = checkPaymentPolicy(input(tx));
  expect(checks(result)).toEqual([]);
  if (result.ok) {
    expect(result.request.fragmentFrom).toBe(linked.toRawString());
    expect(result.request.fragmentMessage).toBeUndefined();
    expect(result.request.message).toEqual({
      address: starsWallet.toRawString(),
      amount: '441800000',
      payload: tx.messages[0]!.payload,
    });
  }
});

test('GRAM: with FRAGMENT_FROM_MUST_MATCH a from other than the payer is refused before signing', () => {
  expect(checks(checkPaymentPolicy(input(gramTx({}, { from: addr().toRawString() }), { config: strict })))).toEqual([
    'payer',
  ]);
  expect(checks(checkPaymentPolicy(input(gramTx(), { config: strict })))).toEqual([]);
});

test('a destination off the allow-list is named friendly and raw, so an operator can allow-list it', () => {
  const unknown = addr();
  const named = { friendly: unknown.toString({ bounceable: false, urlSafe: true }), raw: unknown.toRawString() };
  const gram = checkPaymentPolicy(input(gramTx({ address: unknown.toString() })));
  expect(gram.ok ? [] : gram.violations).toEqual([
    {
      check: 'destination',
      message: expect.stringContaining(`${named.friendly} (${named.raw}) is not an allow-listed`),
      destination: named,
    },
  ]);
  const usdt = checkPaymentPolicy(usdtInput(usdtTx({ destination: unknown })));
  expect(usdt.ok ? [] : usdt.violations).toEqual([
    {
      check: 'jetton_destination',
      message: expect.stringContaining(`${named.friendly} (${named.raw})`),
      destination: named,
    },
  ]);
});

test('GRAM: another payer still has to pay an allow-listed receiver the quoted amount', () => {
  const from = { from: addr().toRawString() };
  expect(checks(checkPaymentPolicy(input(gramTx({ address: addr().toString() }, from))))).toEqual(['destination']);
  expect(checks(checkPaymentPolicy(input(gramTx({ amount: '450000000' }, from))))).toEqual(['amount']);
});

test('GRAM: the per-purchase spend cap', () => {
  const tx = gramTx({ amount: '20000000000' });
  expect(checks(checkPaymentPolicy(input(tx, { initAmount: '20', bookPrice: 20_000_000_000n })))).toEqual([
    'spend_cap',
  ]);
});

function usdtTx(
  transfer: Partial<Parameters<typeof buildJettonTransfer>[0]> = {},
  message: Partial<FragmentTransaction['messages'][0]> = {},
): FragmentTransaction {
  const body = buildJettonTransfer({
    queryId: 7n,
    amount: 750_000n,
    destination: starsWallet,
    responseDestination: payer,
    forwardTonAmount: 1n,
    forwardPayload: comment(),
    ...transfer,
  });
  return gramTx({
    address: payerJettonWallet.toString(),
    amount: '50000000',
    payload: encodePayload(body),
    ...message,
  });
}

const usdtInput = (tx: FragmentTransaction) =>
  input(tx, { paymentMethod: 'usdt', initAmount: '0.75', payerJettonWallet, bookPrice: 750_000n });

test('USDT: a transfer from the payer jetton wallet to an allow-listed destination passes', () => {
  const result = checkPaymentPolicy(usdtInput(usdtTx()));
  expect(result.ok).toBe(true);
  if (result.ok)
    expect(result.request.jetton).toEqual({
      jettonWallet: payerJettonWallet.toRawString(),
      amount: '750000',
      destination: starsWallet.toRawString(),
      queryId: '7',
    });
});

test.each([
  ['a jetton destination off the allow-list', usdtTx({ destination: addr() }), ['jetton_destination']],
  ['excess GRAM sent elsewhere', usdtTx({ responseDestination: addr() }), ['response_destination']],
  ['a jetton amount beyond the tolerance', usdtTx({ amount: 800_000n }), ['amount']],
  ['more gas than JETTON_GAS_ATTACH', usdtTx({}, { amount: '200000000' }), ['gas_attach']],
  [
    'a plain comment instead of a jetton transfer',
    gramTx({ address: payerJettonWallet.toString(), amount: '50000000' }),
    ['payload'],
  ],
])('USDT: %s is rejected', (_label, tx, expected) => {
  expect(checks(checkPaymentPolicy(usdtInput(tx)))).toEqual(expected);
});

test('USDT: a gas attach over JETTON_GAS_ATTACH is refused naming both amounts in GRAM', () => {
  const result = checkPaymentPolicy(usdtInput(usdtTx({}, { amount: '650000000' })));
  expect(result.ok ? [] : result.violations).toEqual([
    {
      check: 'gas_attach',
      message: "Fragment attaches 0.65 GRAM for the jetton transfer's gas, over JETTON_GAS_ATTACH (0.1 GRAM)",
    },
  ]);
});

test('USDT: the per-purchase spend cap', () => {
  const tx = usdtTx({ amount: 200_000_000n });
  expect(
    checks(checkPaymentPolicy(input(tx, { paymentMethod: 'usdt', initAmount: '200', payerJettonWallet }))),
  ).toEqual(['spend_cap']);
});

describe("USDT: Fragment's transfer aimed at the linked wallet's jetton wallet", () => {
  const linked = addr();
  const linkedJettonWallet = addr();
  const linkedTx = (transfer: Partial<Parameters<typeof buildJettonTransfer>[0]> = {}, message = {}) => ({
    ...usdtTx(
      { responseDestination: linked, queryId: 123n, ...transfer },
      { address: linkedJettonWallet.toString(), ...message },
    ),
    from: linked.toRawString(),
  });

  test("is rebuilt through the payer's own jetton wallet: same owner, amount, forward GRAM and payload cell; payer's response and query id", () => {
    const tx = linkedTx({ forwardTonAmount: 5n });
    const result = checkPaymentPolicy(usdtInput(tx));
    expect(checks(result)).toEqual([]);
    if (!result.ok) return;
    const request = result.request;
    expect(request.fragmentFrom).toBe(linked.toRawString());
    expect(request.fragmentMessage).toEqual(tx.messages[0]);
    expect(request.message.address).toBe(payerJettonWallet.toRawString());
    expect(request.message.amount).toBe('50000000');
    const signed = parseJettonTransferBody(Cell.fromBoc(Buffer.from(request.message.payload, 'base64url'))[0]!);
    expect(signed.destination!.equals(starsWallet)).toBe(true);
    expect(signed.responseDestination!.equals(payer)).toBe(true);
    expect(signed.amount).toBe(750_000n);
    expect(signed.forwardTonAmount).toBe(5n);
    expect(signed.queryId).toBe(OWN_QUERY_ID);
    expect(signed.forwardPayloadInRef).toBe(true);
    expect(signed.forwardPayload!.hash().equals(comment().hash())).toBe(true);
    expect(request.jetton).toEqual({
      jettonWallet: payerJettonWallet.toRawString(),
      amount: '750000',
      destination: starsWallet.toRawString(),
      queryId: OWN_QUERY_ID.toString(),
    });
  });

  test('keeps an inline forward payload inline, bit for bit', () => {
    const inlineBody = buildJettonTransferBody({
      queryId: 9n,
      amount: 750_000n,
      destination: starsWallet,
      responseDestination: linked,
      forwardPayload: comment(),
      forwardPayloadInRef: false,
    });
    const tx = {
      ...gramTx({ address: linkedJettonWallet.toString(), amount: '50000000', payload: encodePayload(inlineBody) }),
      from: linked.toRawString(),
    };
    const result = checkPaymentPolicy(usdtInput(tx));
    expect(checks(result)).toEqual([]);
    if (!result.ok) return;
    const signed = parseJettonTransferBody(Cell.fromBoc(Buffer.from(result.request.message.payload, 'base64url'))[0]!);
    expect(signed.forwardPayloadInRef).toBe(false);
    expect(signed.forwardPayload!.hash().equals(comment().hash())).toBe(true);
    expect(signed.responseDestination!.equals(payer)).toBe(true);
  });

  test('the message actually signed is judged: an off-list jetton destination, a wrong amount or too much gas are still refused', () => {
    expect(checks(checkPaymentPolicy(usdtInput(linkedTx({ destination: addr() }))))).toEqual(['jetton_destination']);
    expect(checks(checkPaymentPolicy(usdtInput(linkedTx({ amount: 800_000n }))))).toEqual(['amount']);
    expect(checks(checkPaymentPolicy(usdtInput(linkedTx({}, { amount: '200000000' }))))).toEqual(['gas_attach']);
  });

  test('with FRAGMENT_FROM_MUST_MATCH nothing is rebuilt and the request is refused as before', () => {
    const result = checkPaymentPolicy({ ...usdtInput(linkedTx()), config: strict });
    expect(checks(result)).toEqual(['payer', 'destination', 'response_destination']);
  });
});
