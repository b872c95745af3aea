import {
  Address,
  beginCell,
  Cell,
  external,
  internal,
  loadMessage,
  SendMode,
  storeMessage,
  storeMessageRelaxed,
  toNano,
} from '@ton/core';
import { WalletContractV5R1 } from '@ton/ton';
import { randomBytes } from 'node:crypto';
import type { Blockchain } from '@ton/sandbox';
import {
  buildJettonTransferBody,
  buildSendTransactionRequest,
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  judgeWalletTransaction,
  type SendTransactionRequest,
  type WalletVersion,
  verifySignedBoc,
  type WalletKeyPair,
} from '../../src';
import { comment, fund, quietBlockchain, sandboxAccountState, sendBoc } from '../helpers/sandbox';

/** Plays the user's wallet: signs exactly what the request says (optionally tampered). */
async function walletSigns(
  version: WalletVersion,
  key: WalletKeyPair,
  request: SendTransactionRequest,
  opts: { seqno: number; validUntil?: number; tamper?: (msgs: ReturnType<typeof toOutgoing>) => void },
): Promise<string> {
  const wallet = createWalletContract(version, key.publicKey, 'mainnet');
  const messages = toOutgoing(request);
  opts.tamper?.(messages);
  return (
    await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: opts.seqno,
      validUntil: opts.validUntil ?? request.validUntil,
      messages,
    })
  ).boc;
}

function toOutgoing(request: SendTransactionRequest) {
  return request.messages.map((m) => {
    const parsed = Address.parseFriendly(m.address);
    return {
      to: parsed.address,
      bounce: parsed.isBounceable,
      value: BigInt(m.amount),
      body: m.payload ? Cell.fromBase64(m.payload) : undefined,
    };
  });
}

describe('TON Connect checkout', () => {
  let blockchain: Blockchain;
  let key: WalletKeyPair;
  let now: number;
  const merchant = new Address(0, randomBytes(32));
  const payerJetton = new Address(0, randomBytes(32));

  beforeEach(async () => {
    blockchain = await quietBlockchain();
    key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    now = Math.floor(Date.now() / 1000);
  });

  function requestFor(version: WalletVersion): SendTransactionRequest {
    const payer = createWalletContract(version, key.publicKey, 'mainnet').address;
    return buildSendTransactionRequest({
      network: 'mainnet',
      from: payer,
      validUntil: now + 240,
      now,
      messages: [
        { to: merchant, bounce: false, amount: toNano('0.3'), payload: comment('Ref#A1') },
        {
          to: payerJetton,
          bounce: true,
          amount: toNano('0.05'),
          payload: buildJettonTransferBody({
            queryId: 5n,
            amount: 1_000_000n,
            destination: merchant,
            responseDestination: payer,
            forwardPayload: comment('Ref#A1'),
          }),
        },
      ],
    });
  }

  const deps = () => ({ network: 'mainnet' as const, chain: sandboxAccountState(blockchain), now });

  it('builds the request in TON Connect shape', () => {
    const request = requestFor('V5R1');
    expect(request.network).toBe('-239');
    expect(request.validUntil - now).toBeLessThanOrEqual(300);
    expect(request.from).toMatch(/^0:[0-9a-f]{64}$/);
    expect(request.messages[0]).toMatchObject({ amount: '300000000' });
    expect(Address.parseFriendly(request.messages[0]!.address).isBounceable).toBe(false);
    expect(Address.parseFriendly(request.messages[1]!.address).isBounceable).toBe(true);
    expect(() =>
      buildSendTransactionRequest({
        network: 'mainnet',
        from: merchant,
        validUntil: now + 301,
        now,
        messages: [{ to: merchant, bounce: false, amount: 1n }],
      }),
    ).toThrow();
    const testnet = buildSendTransactionRequest({
      network: 'testnet',
      from: merchant,
      validUntil: now + 60,
      now,
      messages: [{ to: merchant, bounce: false, amount: 1n }],
    });
    expect(testnet.network).toBe('-3');
    expect(Address.parseFriendly(testnet.messages[0]!.address).isTestOnly).toBe(true);
  });

  it('accepts an undeployed V5R1 wallet signing with init (seqno 0), and the BOC then executes', async () => {
    const request = requestFor('V5R1');
    const boc = await walletSigns('V5R1', key, request, { seqno: 0 });
    const verified = await verifySignedBoc(boc, request, deps());
    expect(verified).toMatchObject({ walletVersion: 'V5R1', seqno: 0, deploys: true, validUntil: request.validUntil });
    expect(verified.publicKey.equals(key.publicKey)).toBe(true);
    const payer = Address.parseRaw(request.from);
    await fund(blockchain, payer, toNano('2'));
    const { tx } = await sendBoc(blockchain, boc, payer);
    expect(judgeWalletTransaction(tx, 2)).toEqual({ ok: true });
  });

  it('accepts a deployed V4R2 wallet (key and seqno from account state)', async () => {
    const wallet = createWalletContract('V4R2', key.publicKey, 'mainnet');
    await fund(blockchain, wallet.address, toNano('2'));
    const deploy = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 0,
      validUntil: now + 60,
      messages: [{ to: merchant, value: 1n, bounce: false }],
    });
    await sendBoc(blockchain, deploy.boc, wallet.address);
    const request = requestFor('V4R2');
    const boc = await walletSigns('V4R2', key, request, { seqno: 1 });
    expect(await verifySignedBoc(boc, request, deps())).toMatchObject({
      walletVersion: 'V4R2',
      seqno: 1,
      deploys: false,
    });
    await expect(
      verifySignedBoc(await walletSigns('V4R2', key, request, { seqno: 0 }), request, deps()),
    ).rejects.toMatchObject({ code: 'CHECKOUT_SEQNO_MISMATCH' });
  });

  const code = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      return (error as { code?: string }).code;
    }
    return 'ACCEPTED';
  };

  it('rejects a tampered amount, destination, payload, bounce flag, count and order', async () => {
    const request = requestFor('V5R1');
    const cases: Array<(m: ReturnType<typeof toOutgoing>) => void> = [
      (m) => (m[0]!.value += 1n),
      (m) => (m[0]!.to = new Address(0, randomBytes(32))),
      (m) => (m[0]!.body = comment('Ref#B2')),
      (m) => (m[1]!.bounce = false),
      (m) => m.pop(),
      (m) => m.reverse(),
    ];
    for (const tamper of cases) {
      expect(
        await code(verifySignedBoc(await walletSigns('V5R1', key, request, { seqno: 0, tamper }), request, deps())),
      ).toBe('CHECKOUT_MESSAGE_MISMATCH');
    }
  });

  it('rejects a message with an unrequested StateInit', async () => {
    const request = requestFor('V5R1');
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const msgs = toOutgoing(request).map((m, i) =>
      i === 0 ? { ...m, init: { code: Cell.EMPTY, data: Cell.EMPTY } } : m,
    );
    const boc = (
      await buildSignedExternal({
        wallet,
        secretKey: key.secretKey,
        seqno: 0,
        validUntil: request.validUntil,
        messages: msgs,
      })
    ).boc;
    expect(await code(verifySignedBoc(boc, request, deps()))).toBe('CHECKOUT_MESSAGE_MISMATCH');
  });

  it('rejects a signature whose S is not reduced (a second valid-looking encoding, refused by the validators too)', async () => {
    const request = requestFor('V5R1');
    const boc = await walletSigns('V5R1', key, request, { seqno: 0 });
    const msg = loadMessage(Cell.fromBase64(boc).beginParse());
    const s = msg.body.beginParse();
    const bits = s.loadBits(msg.body.bits.length - 512);
    const sig = Buffer.from(s.loadBuffer(64));
    // S + L (the group order), little-endian: tweetnacl would still accept it.
    const order = 2n ** 252n + 27742317777372353535851937790883648493n;
    const sPlusL = BigInt(`0x${Buffer.from(sig.subarray(32)).reverse().toString('hex')}`) + order;
    const malleated = Buffer.concat([
      sig.subarray(0, 32),
      Buffer.from(sPlusL.toString(16).padStart(64, '0'), 'hex').reverse(),
    ]);
    const body = beginCell().storeBits(bits).storeBuffer(malleated);
    for (const ref of msg.body.refs) body.storeRef(ref);
    const tampered = beginCell()
      .store(storeMessage({ ...msg, body: body.endCell() }))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(boc, request, deps()))).toBe('ACCEPTED');
    expect(await code(verifySignedBoc(tampered, request, deps()))).toBe('CHECKOUT_BAD_SIGNATURE');
  });

  it('rejects a forged signature', async () => {
    const request = requestFor('V5R1');
    const boc = await walletSigns('V5R1', key, request, { seqno: 0 });
    const msg = loadMessage(Cell.fromBase64(boc).beginParse());
    const s = msg.body.beginParse();
    const bits = s.loadBits(msg.body.bits.length - 512);
    const sig = Buffer.from(s.loadBuffer(64));
    sig[10] = (sig[10] as number) ^ 1;
    const forged = beginCell().storeBits(bits).storeBuffer(sig);
    for (const ref of msg.body.refs) forged.storeRef(ref);
    const tampered = beginCell()
      .store(storeMessage({ ...msg, body: forged.endCell() }))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(tampered, request, deps()))).toBe('CHECKOUT_BAD_SIGNATURE');
    // Another key signing for this address (its StateInit hash still matches) also fails.
    const other = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const otherWallet = createWalletContract('V5R1', other.publicKey, 'mainnet');
    const body = otherWallet.createTransfer({
      seqno: 0,
      secretKey: other.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: request.validUntil,
      messages: toOutgoing(request).map((m) => internal({ to: m.to, value: m.value, bounce: m.bounce, body: m.body })),
    });
    const foreign = beginCell()
      .store(storeMessage(external({ to: wallet.address, init: wallet.init, body })))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(foreign, request, deps()))).toBe('CHECKOUT_BAD_SIGNATURE');
  });

  it('rejects expired messages and validity beyond the checkout', async () => {
    const request = requestFor('V5R1');
    expect(
      await code(
        verifySignedBoc(await walletSigns('V5R1', key, request, { seqno: 0, validUntil: now }), request, deps()),
      ),
    ).toBe('CHECKOUT_EXPIRED');
    expect(
      await code(
        verifySignedBoc(
          await walletSigns('V5R1', key, request, { seqno: 0, validUntil: request.validUntil + 1 }),
          request,
          deps(),
        ),
      ),
    ).toBe('CHECKOUT_EXPIRED');
    const boc = await walletSigns('V5R1', key, request, { seqno: 0 });
    expect(await code(verifySignedBoc(boc, request, { ...deps(), now: request.validUntil }))).toBe('CHECKOUT_EXPIRED');
    expect(await code(verifySignedBoc(boc, request, { ...deps(), now: request.validUntil - 1 }))).toBe('ACCEPTED');
  });

  it('rejects a wrong payer', async () => {
    const request = requestFor('V5R1');
    const other = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    expect(await code(verifySignedBoc(await walletSigns('V5R1', other, request, { seqno: 0 }), request, deps()))).toBe(
      'CHECKOUT_WRONG_PAYER',
    );
    // Same key, other version: a different address too.
    expect(await code(verifySignedBoc(await walletSigns('V4R2', key, request, { seqno: 0 }), request, deps()))).toBe(
      'CHECKOUT_WRONG_PAYER',
    );
  });

  it('rejects a wrong wallet id (testnet id signed for the mainnet wallet)', async () => {
    const request = requestFor('V5R1');
    const mainnetWallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const testnetIdWallet = WalletContractV5R1.create({
      publicKey: key.publicKey,
      walletId: { networkGlobalId: -3, context: { workchain: 0, walletVersion: 'v5r1', subwalletNumber: 0 } },
    });
    const body = testnetIdWallet.createTransfer({
      seqno: 0,
      secretKey: key.secretKey,
      sendMode: SendMode.PAY_GAS_SEPARATELY + SendMode.IGNORE_ERRORS,
      timeout: request.validUntil,
      messages: toOutgoing(request).map((m) => internal({ to: m.to, value: m.value, bounce: m.bounce, body: m.body })),
    });
    const boc = beginCell()
      .store(storeMessage(external({ to: mainnetWallet.address, init: mainnetWallet.init, body })))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(boc, request, deps()))).toBe('CHECKOUT_WRONG_WALLET_ID');
  });

  it('rejects a wrong seqno for an undeployed wallet', async () => {
    const request = requestFor('V5R1');
    // A wallet would only sign seqno 1 for a deployed account; force the StateInit in to reach the seqno check.
    const signed = loadMessage(Cell.fromBase64(await walletSigns('V5R1', key, request, { seqno: 1 })).beginParse());
    const withInit = { ...signed, init: createWalletContract('V5R1', key.publicKey, 'mainnet').init };
    const boc = beginCell().store(storeMessage(withInit)).endCell().toBoc().toString('base64');
    expect(await code(verifySignedBoc(boc, request, deps()))).toBe('CHECKOUT_SEQNO_MISMATCH');
    // Without any StateInit an undeployed wallet cannot execute it at all.
    expect(await code(verifySignedBoc(await walletSigns('V5R1', key, request, { seqno: 1 }), request, deps()))).toBe(
      'CHECKOUT_BOC_INVALID',
    );
  });

  it('rejects BOCs that are not one external-in message, and a StateInit of another address', async () => {
    const request = requestFor('V5R1');
    const payer = Address.parseRaw(request.from);
    const internalMsg = beginCell()
      .store(storeMessageRelaxed(internal({ to: payer, value: 1n, bounce: false })))
      .endCell()
      .toBoc()
      .toString('base64');
    const truncated = Cell.EMPTY.toBoc().toString('base64').slice(0, 8);
    for (const bad of [internalMsg, 'not base64 at all!', truncated, Cell.EMPTY.toBoc().toString('base64')]) {
      expect(await code(verifySignedBoc(bad, request, deps()))).toBe('CHECKOUT_BOC_INVALID');
    }
    const good = loadMessage(Cell.fromBase64(await walletSigns('V5R1', key, request, { seqno: 0 })).beginParse());
    const v4 = createWalletContract('V4R2', key.publicKey, 'mainnet');
    const wrongInit = beginCell()
      .store(storeMessage({ ...good, init: v4.init }))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(wrongInit, request, deps()))).toBe('CHECKOUT_BOC_INVALID');
    const noInit = beginCell()
      .store(storeMessage({ ...good, init: null }))
      .endCell()
      .toBoc()
      .toString('base64');
    expect(await code(verifySignedBoc(noInit, request, deps()))).toBe('CHECKOUT_BOC_INVALID');
  });
});
