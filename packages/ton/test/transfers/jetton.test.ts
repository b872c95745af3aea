import { Address, beginCell, Cell, contractAddress, toNano, type Transaction } from '@ton/core';
import type { Blockchain } from '@ton/sandbox';
import { randomBytes } from 'node:crypto';
import {
  buildJettonTransferBody,
  buildSignedExternal,
  createWalletContract,
  DEFAULT_JETTON_TRANSFER_ATTACH,
  deriveKeyPair,
  JETTON_OP,
  judgeJettonTransfer,
  judgeWalletTransaction,
  parseJettonTransferBody,
} from '../../src';
import { JETTON_MINTER_CODE, JETTON_WALLET_CODE } from '../../src/testing';
import { addressOfTx, comment, fund, quietBlockchain, sendBoc } from '../helpers/sandbox';

describe('buildJettonTransferBody', () => {
  it('encodes TEP-74 transfer field by field, forward payload kept as the same ref', () => {
    const destination = new Address(0, randomBytes(32));
    const responseDestination = new Address(0, randomBytes(32));
    const forwardPayload = comment('Telegram Premium for 3 months Ref#abc');
    const body = buildJettonTransferBody({
      queryId: 123456789n,
      amount: 12_340_000n,
      destination,
      responseDestination,
      forwardPayload,
    });

    const s = body.beginParse();
    expect(s.loadUint(32)).toBe(0x0f8a7ea5);
    expect(s.loadUintBig(64)).toBe(123456789n);
    expect(s.loadCoins()).toBe(12_340_000n);
    expect(s.loadAddress().equals(destination)).toBe(true);
    expect(s.loadAddress().equals(responseDestination)).toBe(true);
    expect(s.loadBit()).toBe(false); // no custom payload
    expect(s.loadCoins()).toBe(1n); // forward_ton_amount default
    expect(s.loadBit()).toBe(true); // forward payload in a ref
    const ref = s.loadRef();
    expect(ref.hash().equals(forwardPayload.hash())).toBe(true);
    expect(s.remainingBits).toBe(0);
    expect(s.remainingRefs).toBe(0);

    const decoded = parseJettonTransferBody(body);
    expect(decoded).toMatchObject({
      queryId: 123456789n,
      amount: 12_340_000n,
      forwardTonAmount: 1n,
      forwardPayloadInRef: true,
      customPayload: null,
    });
    expect(DEFAULT_JETTON_TRANSFER_ATTACH).toBe(50_000_000n);
    expect(() =>
      buildJettonTransferBody({ queryId: 1n << 64n, amount: 1n, destination, responseDestination, forwardPayload }),
    ).toThrow();
    expect(() =>
      buildJettonTransferBody({ queryId: 1n, amount: 0n, destination, responseDestination, forwardPayload }),
    ).toThrow();
  });
});

// The standard TEP-74 jetton the sandbox's USDT stand-in runs, compiled from the FunC sources in
// apps/sandbox/contracts/jetton. Read by path: @starsgate/sandbox depends on this package, so this
// package cannot depend on it.
function loadJettonCode(): { minter: Cell; wallet: Cell } {
  return { minter: Cell.fromBase64(JETTON_MINTER_CODE.boc), wallet: Cell.fromBase64(JETTON_WALLET_CODE.boc) };
}
const code = loadJettonCode();

describe('judgeJettonTransfer on a real TEP-74 jetton in @ton/sandbox', () => {
  let blockchain: Blockchain;
  let minter: Address;

  async function jettonWalletOf(owner: Address): Promise<Address> {
    const res = await blockchain.runGetMethod(minter, 'get_wallet_address', [
      { type: 'slice', cell: beginCell().storeAddress(owner).endCell() },
    ]);
    return res.stackReader.readAddress();
  }

  function txOf(all: Transaction[], account: Address): Transaction | undefined {
    return all.find((t) => addressOfTx(t).equals(account));
  }

  beforeAll(async () => {
    blockchain = await quietBlockchain();
    const admin = await blockchain.treasury('admin');
    const data = beginCell()
      .storeCoins(0)
      .storeAddress(admin.address)
      .storeRef(beginCell().storeUint(1, 8).storeStringTail('test://usdt').endCell())
      .storeRef(code.wallet)
      .endCell();
    minter = contractAddress(0, { code: code.minter, data });
    await admin.send({ to: minter, value: toNano('1'), init: { code: code.minter, data }, bounce: false });
  });

  async function setupPayer(mintAmount: bigint) {
    const { publicKey, secretKey } = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const payer = createWalletContract('V5R1', publicKey, 'mainnet');
    await fund(blockchain, payer.address, toNano('10'));
    const admin = await blockchain.treasury('admin');
    const internalTransfer = beginCell()
      .storeUint(JETTON_OP.internalTransfer, 32)
      .storeUint(0, 64)
      .storeCoins(mintAmount)
      .storeAddress(minter)
      .storeAddress(admin.address)
      .storeCoins(0)
      .storeBit(false)
      .endCell();
    const mint = beginCell()
      .storeUint(21, 32)
      .storeUint(0, 64)
      .storeAddress(payer.address)
      .storeCoins(toNano('0.05'))
      .storeRef(internalTransfer)
      .endCell();
    await admin.send({ to: minter, value: toNano('0.2'), body: mint, bounce: true });
    const payerJetton = await jettonWalletOf(payer.address);
    const balance = (await blockchain.runGetMethod(payerJetton, 'get_wallet_data')).stackReader.readBigNumber();
    expect(balance).toBe(mintAmount);
    return { payer, secretKey, payerJetton };
  }

  it('success: wallet tx ok, jetton wallet forwards internal_transfer, receiver accepts', async () => {
    const { payer, secretKey, payerJetton } = await setupPayer(100_000_000n);
    const recipient = new Address(0, randomBytes(32));
    const seqno = 0; // fresh payer: first external deploys it
    const body = buildJettonTransferBody({
      queryId: 77n,
      amount: 1_000_000n,
      destination: recipient,
      responseDestination: payer.address,
      forwardPayload: comment('ok'),
    });
    const signed = await buildSignedExternal({
      wallet: payer,
      secretKey,
      seqno,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: payerJetton, value: DEFAULT_JETTON_TRANSFER_ATTACH, bounce: true, body }],
    });
    const { tx, all } = await sendBoc(blockchain, signed.boc, payer.address);
    expect(judgeWalletTransaction(tx, 1)).toEqual({ ok: true });
    const jtx = txOf(all, payerJetton)!;
    const receiverJetton = await jettonWalletOf(recipient);
    const rtx = txOf(all, receiverJetton)!;
    expect(
      judgeJettonTransfer({ payerJettonWalletTx: jtx, receiverJettonWalletTx: rtx, expectedQueryId: 77n }),
    ).toEqual({ ok: true });
    expect(judgeJettonTransfer({ payerJettonWalletTx: jtx, expectedQueryId: 78n })).toMatchObject({
      ok: false,
      reason: 'UNEXPECTED_MESSAGE',
    });
    // The receiver's tx is not a payer jetton-wallet transfer.
    expect(judgeJettonTransfer({ payerJettonWalletTx: rtx })).toMatchObject({
      ok: false,
      reason: 'UNEXPECTED_MESSAGE',
    });
  });

  it('failure after a successful wallet tx: more than the balance ⇒ jetton wallet exit code and a bounce to the payer', async () => {
    const { payer, secretKey, payerJetton } = await setupPayer(5_000_000n);
    const seqno = 0;
    const body = buildJettonTransferBody({
      queryId: 78n,
      amount: 999_000_000_000n,
      destination: new Address(0, randomBytes(32)),
      responseDestination: payer.address,
      forwardPayload: comment('too much'),
    });
    const signed = await buildSignedExternal({
      wallet: payer,
      secretKey,
      seqno,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: payerJetton, value: DEFAULT_JETTON_TRANSFER_ATTACH, bounce: true, body }],
    });
    const { tx, all } = await sendBoc(blockchain, signed.boc, payer.address);
    expect(judgeWalletTransaction(tx, 1)).toEqual({ ok: true }); // the wallet part succeeded…
    const jtx = txOf(all, payerJetton)!;
    const verdict = judgeJettonTransfer({ payerJettonWalletTx: jtx });
    expect(verdict).toMatchObject({ ok: false, reason: 'JETTON_COMPUTE_FAILED' }); // …the payment did not
    expect((verdict as { detail: string }).detail).toMatch(/exit code \d+.*bounced to payer/);
    const bounceTx = all.find(
      (t) => addressOfTx(t).equals(payer.address) && t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced,
    );
    expect(bounceTx).toBeDefined();
    expect(bounceTx!.inMessage!.body.beginParse().loadUint(32)).toBe(JETTON_OP.bounce);
  });

  it('too little GRAM attached ⇒ JETTON_COMPUTE_FAILED with the gas exit code', async () => {
    const { payer, secretKey, payerJetton } = await setupPayer(5_000_000n);
    const seqno = 0;
    const body = buildJettonTransferBody({
      queryId: 79n,
      amount: 1_000_000n,
      destination: new Address(0, randomBytes(32)),
      responseDestination: payer.address,
      forwardTonAmount: toNano('0.5'),
      forwardPayload: comment('x'),
    });
    const signed = await buildSignedExternal({
      wallet: payer,
      secretKey,
      seqno,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: payerJetton, value: toNano('0.01'), bounce: true, body }],
    });
    const { tx, all } = await sendBoc(blockchain, signed.boc, payer.address);
    expect(judgeWalletTransaction(tx, 1)).toEqual({ ok: true });
    const verdict = judgeJettonTransfer({ payerJettonWalletTx: txOf(all, payerJetton)! });
    expect(verdict).toMatchObject({ ok: false, reason: 'JETTON_COMPUTE_FAILED' });
    expect((verdict as { detail: string }).detail).toMatch(/exit code (48|709)/);
  });
});
