import { Address, beginCell, Cell, external, loadMessage, storeMessage, toNano } from '@ton/core';
import { randomBytes } from 'node:crypto';
import {
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  judgeWalletTransaction,
  normalizedExternalHash,
  type OutgoingMessage,
} from '../../src';
import { addressOfTx, comment, fund, quietBlockchain, sendBoc } from '../helpers/sandbox';

async function freshKey() {
  return deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
}

function recipients(n: number): Address[] {
  return Array.from({ length: n }, () => new Address(0, randomBytes(32)));
}

describe('buildSignedExternal on @ton/sandbox', () => {
  it('V5R1: deploys with init at seqno 0, sends a batch of 5, rejects a replay, then seqno 1 works', async () => {
    const blockchain = await quietBlockchain();
    const key = await freshKey();
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    await fund(blockchain, wallet.address, toNano('10'));
    const to = recipients(5);
    const messages: OutgoingMessage[] = to.map((address, i) => ({
      to: address,
      value: toNano('0.1') * BigInt(i + 1),
      bounce: false,
      body: comment(`order ${i}`),
    }));
    const validUntil = Math.floor(Date.now() / 1000) + 60;
    const signed = await buildSignedExternal({ wallet, secretKey: key.secretKey, seqno: 0, validUntil, messages });
    expect(signed).toMatchObject({ seqno: 0, validUntil });
    expect(signed.normalizedHash).toMatch(/^[0-9a-f]{64}$/);
    const parsed = loadMessage(Cell.fromBase64(signed.boc).beginParse());
    expect(parsed.init).toBeTruthy();

    const { tx } = await sendBoc(blockchain, signed.boc, wallet.address);
    expect(judgeWalletTransaction(tx, 5)).toEqual({ ok: true });
    expect(judgeWalletTransaction(tx, 4)).toMatchObject({ ok: false, reason: 'MESSAGE_COUNT_MISMATCH' });
    expect(normalizedExternalHash(tx.inMessage!)).toBe(signed.normalizedHash);
    for (let i = 0; i < 5; i += 1) {
      expect((await blockchain.getContract(to[i]!)).balance).toBe(toNano('0.1') * BigInt(i + 1));
    }
    expect((await blockchain.runGetMethod(wallet.address, 'seqno')).stackReader.readNumber()).toBe(1);

    // Identical bytes again: the wallet refuses (seqno 133) before accepting, so nothing is paid twice.
    await expect(sendBoc(blockchain, signed.boc, wallet.address)).rejects.toMatchObject({ exitCode: 133 });

    const next = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 1,
      validUntil,
      messages: messages.slice(0, 1),
    });
    expect(loadMessage(Cell.fromBase64(next.boc).beginParse()).init).toBeFalsy();
    const second = await sendBoc(blockchain, next.boc, wallet.address);
    expect(judgeWalletTransaction(second.tx, 1)).toEqual({ ok: true });
    // 0.1 + 0.1 minus a nanoGRAM-scale storage fee charged to the uninit recipient.
    expect((await blockchain.getContract(to[0]!)).balance).toBeGreaterThan(toNano('0.19'));
  });

  it('V4R2: batch of 4, limit 4 enforced, expired message rejected', async () => {
    const blockchain = await quietBlockchain();
    const key = await freshKey();
    const wallet = createWalletContract('V4R2', key.publicKey, 'mainnet');
    await fund(blockchain, wallet.address, toNano('5'));
    const to = recipients(5);
    const messages = to.map((address) => ({ to: address, value: toNano('0.05'), bounce: false }));
    const validUntil = Math.floor(Date.now() / 1000) + 60;
    await expect(
      buildSignedExternal({ wallet, secretKey: key.secretKey, seqno: 0, validUntil, messages }),
    ).rejects.toThrow(/at most 4/);
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil,
      messages: messages.slice(0, 4),
    });
    const { tx } = await sendBoc(blockchain, signed.boc, wallet.address);
    expect(judgeWalletTransaction(tx, 4)).toEqual({ ok: true });
    expect((await blockchain.getContract(to[3]!)).balance).toBe(toNano('0.05'));

    const expired = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 1,
      validUntil: Math.floor(Date.now() / 1000) - 1,
      messages: messages.slice(0, 1),
    });
    await expect(sendBoc(blockchain, expired.boc, wallet.address)).rejects.toMatchObject({ exitCode: 36 });
  });

  it('V5R1 with too little balance: the tx "succeeds" but skips the action → SKIPPED_ACTIONS, seqno consumed', async () => {
    const blockchain = await quietBlockchain();
    const key = await freshKey();
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    await fund(blockchain, wallet.address, toNano('0.05'));
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: Math.floor(Date.now() / 1000) + 60,
      messages: [{ to: recipients(1)[0]!, value: toNano('1'), bounce: false }],
    });
    const { tx } = await sendBoc(blockchain, signed.boc, wallet.address);
    const d = tx.description;
    expect(d.type === 'generic' && d.computePhase.type === 'vm' && d.computePhase.success).toBe(true);
    expect(judgeWalletTransaction(tx, 1)).toMatchObject({ ok: false, reason: 'SKIPPED_ACTIONS' });
    expect(addressOfTx(tx).equals(wallet.address)).toBe(true);
    expect((await blockchain.runGetMethod(wallet.address, 'seqno')).stackReader.readNumber()).toBe(1);
  });

  it('refuses a key that does not belong to the wallet, empty batches and non-bigint values', async () => {
    const key = await freshKey();
    const other = await freshKey();
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const msg = { to: recipients(1)[0]!, value: 1n, bounce: false };
    const validUntil = Math.floor(Date.now() / 1000) + 60;
    await expect(
      buildSignedExternal({ wallet, secretKey: other.secretKey, seqno: 0, validUntil, messages: [msg] }),
    ).rejects.toThrow(/does not belong/);
    await expect(
      buildSignedExternal({ wallet, secretKey: key.secretKey, seqno: 0, validUntil, messages: [] }),
    ).rejects.toThrow();
    await expect(
      buildSignedExternal({
        wallet,
        secretKey: key.secretKey,
        seqno: 0,
        validUntil,
        messages: [{ ...msg, value: 1 as unknown as bigint }],
      }),
    ).rejects.toThrow();
    const many = Array.from({ length: 256 }, () => msg);
    await expect(
      buildSignedExternal({ wallet, secretKey: key.secretKey, seqno: 0, validUntil, messages: many }),
    ).rejects.toThrow(/at most 255/);
  });
});

describe('normalizedExternalHash', () => {
  it('is the same with and without init (raw hashes differ) and from a Message, Cell or BOC', async () => {
    const key = await freshKey();
    const wallet = createWalletContract('V5R1', key.publicKey, 'testnet');
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: 2_000_000_000,
      messages: [{ to: recipients(1)[0]!, value: 1n, bounce: false }],
    });
    const withInit = loadMessage(Cell.fromBase64(signed.boc).beginParse());
    const withoutInit = external({ to: wallet.address, body: withInit.body });
    const rawWith = Cell.fromBase64(signed.boc).hash().toString('hex');
    const rawWithoutCell = beginCell().store(storeMessage(withoutInit)).endCell();
    expect(rawWithoutCell.hash().toString('hex')).not.toBe(rawWith);
    expect(normalizedExternalHash(withoutInit)).toBe(signed.normalizedHash);
    expect(normalizedExternalHash(rawWithoutCell)).toBe(signed.normalizedHash);
    expect(normalizedExternalHash(signed.boc)).toBe(signed.normalizedHash);
    // Different signed content ⇒ different hash.
    const other = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: 2_000_000_001,
      messages: [{ to: wallet.address, value: 1n, bounce: false }],
    });
    expect(other.normalizedHash).not.toBe(signed.normalizedHash);
  });
});
