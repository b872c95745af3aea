import { Address, beginCell, toNano } from '@ton/core';
import { buildSendTransactionRequest, requestMessages } from '../../src';

const payer = Address.parse('0:' + '11'.repeat(32));
const merchant = Address.parse('0:' + '22'.repeat(32));
const jettonWallet = Address.parse('0:' + '33'.repeat(32));

test('a request read back as the wallet signs it: destination, bounce flag, value, body and StateInit', () => {
  const body = beginCell().storeUint(0, 32).storeStringTail('Ref#A1').endCell();
  const code = beginCell().storeUint(7, 8).endCell();
  const data = beginCell().storeUint(9, 8).endCell();
  const now = Math.floor(Date.now() / 1000);
  const request = buildSendTransactionRequest({
    network: 'mainnet',
    from: payer,
    validUntil: now + 120,
    now,
    messages: [
      { to: merchant, bounce: false, amount: toNano('0.3'), payload: body },
      { to: jettonWallet, bounce: true, amount: toNano('0.05'), stateInit: { code, data } },
    ],
  });

  const [first, second] = requestMessages(request);
  expect(first!.to.equals(merchant)).toBe(true);
  expect(first!.bounce).toBe(false);
  expect(first!.value).toBe(toNano('0.3'));
  expect(first!.body!.hash().equals(body.hash())).toBe(true);
  expect(first!.init).toBeUndefined();

  expect(second!.to.equals(jettonWallet)).toBe(true);
  expect(second!.bounce).toBe(true);
  expect(second!.value).toBe(toNano('0.05'));
  expect(second!.body!.bits.length).toBe(0);
  expect(second!.init?.code?.hash().equals(code.hash())).toBe(true);
  expect(second!.init?.data?.hash().equals(data.hash())).toBe(true);
});
