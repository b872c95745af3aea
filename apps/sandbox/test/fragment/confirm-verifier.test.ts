import { mnemonicNew, mnemonicToPrivateKey } from '@ton/crypto';
import { Address, beginCell, external, internal, SendMode, storeMessage, toNano } from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { verifyConfirmBoc } from '../../src/fragment/confirm-verifier';
import type { Order } from '../../src/fragment/orders';

/** A signed V5R1 external carrying `count` messages, the order's own one last. */
async function batchedExternal(count: number, own: { to: Address; value: bigint; body: ReturnType<typeof beginCell> }) {
  const keys = await mnemonicToPrivateKey(await mnemonicNew());
  const wallet = WalletContractV5R1.create({ publicKey: keys.publicKey, workchain: 0 });
  const others = Array.from({ length: count - 1 }, (_, i) =>
    internal({ to: wallet.address, value: BigInt(i + 1), bounce: false, body: `other ${i}` }),
  );
  const body = wallet.createTransfer({
    seqno: 1,
    secretKey: keys.secretKey,
    messages: [...others, internal({ to: own.to, value: own.value, bounce: false, body: own.body.endCell() })],
    sendMode: SendMode.PAY_GAS_SEPARATELY,
    timeout: 2_000_000_000,
  });
  const message = external({ to: wallet.address, body });
  return { wallet, boc: beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64') };
}

describe('confirmReq verification of batched externals', () => {
  it('finds the order among 255 messages of one V5R1 external (the last one)', async () => {
    const receiver = Address.parse('0:' + 'ab'.repeat(32));
    const payload = beginCell().storeUint(0, 32).storeStringTail('50 Telegram Stars \n\nRef#BATCH0001');
    const { boc } = await batchedExternal(255, { to: receiver, value: toNano('0.4412'), body: payload });
    const order = {
      message: { address: receiver, amount: toNano('0.4412'), payload: payload.endCell() },
      paymentMethod: 'ton',
    } as unknown as Order;
    expect(await verifyConfirmBoc(boc, order, true)).toMatchObject({ ok: true });

    const other = { ...order, message: { ...order.message!, amount: toNano('0.5') } } as Order;
    expect(await verifyConfirmBoc(boc, other, true)).toMatchObject({ ok: false });
  });
});
