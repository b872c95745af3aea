import { randomBytes } from 'node:crypto';
import { Address } from '@ton/core';
import type { FragmentTransaction } from '@starsgate/fragment';
import { buildCommentCell, buildJettonTransfer, encodePayload } from '@starsgate/sandbox/fragment';
import { checkPaymentPolicy, type PolicyInput } from '../src/purchases/state-machine/payment-policy';

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
};
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
  ['another payer', gramTx({}, { from: addr().toRawString() }), ['payer']],
  ['two messages', { ...gramTx(), messages: [gramTx().messages[0]!, gramTx().messages[0]!] }, ['message_count']],
])('GRAM: %s is rejected', (_label, tx, expected) => {
  expect(checks(checkPaymentPolicy(input(tx)))).toEqual(expected);
});

test('GRAM: the per-purchase spend cap', () => {
  const tx = gramTx({ amount: '20000000000' });
  expect(checks(checkPaymentPolicy(input(tx, { initAmount: '20' })))).toEqual(['spend_cap']);
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
  input(tx, { paymentMethod: 'usdt', initAmount: '0.75', payerJettonWallet });

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
  ["a message to someone else's jetton wallet", usdtTx({}, { address: addr().toString() }), ['destination']],
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

test('USDT: the per-purchase spend cap', () => {
  const tx = usdtTx({ amount: 200_000_000n });
  expect(
    checks(checkPaymentPolicy(input(tx, { paymentMethod: 'usdt', initAmount: '200', payerJettonWallet }))),
  ).toEqual(['spend_cap']);
});
