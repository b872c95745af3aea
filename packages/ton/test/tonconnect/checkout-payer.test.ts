import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, loadMessage, storeStateInit, toNano } from '@ton/core';
import { WalletContractV4 } from '@ton/ton';
import type { Blockchain } from '@ton/sandbox';
import {
  buildSendTransactionRequest,
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  normalizedExternalHash,
  resolveCheckoutPayer,
  verifySignedBoc,
  type WalletKeyPair,
} from '../../src';
import { comment, fund, quietBlockchain, sandboxAccountState, sendBoc } from '../helpers/sandbox';

let blockchain: Blockchain;
let key: WalletKeyPair;

beforeEach(async () => {
  blockchain = await quietBlockchain();
  key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
});

const deps = () => ({ network: 'mainnet' as const, chain: sandboxAccountState(blockchain) });
const stateInitOf = (wallet: { init: { code: Cell; data: Cell } }) =>
  beginCell().store(storeStateInit(wallet.init)).endCell().toBoc().toString('base64');
const code = async (promise: Promise<unknown>) =>
  promise.then(
    () => 'ACCEPTED',
    (error: { code?: string; details?: Array<{ field: string }> }) => `${error.code}:${error.details?.[0]?.field}`,
  );

async function deploy(version: 'V5R1' | 'V4R2') {
  const wallet = createWalletContract(version, key.publicKey, 'mainnet');
  await fund(blockchain, wallet.address, toNano('2'));
  const first = await buildSignedExternal({
    wallet,
    secretKey: key.secretKey,
    seqno: 0,
    validUntil: Math.floor(Date.now() / 1000) + 60,
    messages: [{ to: wallet.address, value: 1n, bounce: false }],
  });
  await sendBoc(blockchain, first.boc, wallet.address);
  return wallet;
}

describe('resolveCheckoutPayer', () => {
  it('reads a deployed wallet (version and key) from the chain, without any key sent', async () => {
    const wallet = await deploy('V4R2');
    const payer = await resolveCheckoutPayer(wallet.address, {}, deps());
    expect({ version: payer.version, deployed: payer.deployed }).toEqual({ version: 'V4R2', deployed: true });
    expect(payer.publicKey.equals(key.publicKey)).toBe(true);
    expect(payer.contract.address.equals(wallet.address)).toBe(true);
  });

  it('refuses a payer_public_key that is not the deployed wallet key', async () => {
    const wallet = await deploy('V5R1');
    const other = randomBytes(32).toString('hex');
    expect(await code(resolveCheckoutPayer(wallet.address, { publicKey: other }, deps()))).toBe(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH:payer_public_key',
    );
  });

  it('takes an undeployed wallet from its state init and key, and refuses what does not match', async () => {
    const wallet = createWalletContract('V5R1', key.publicKey, 'mainnet');
    const stateInit = stateInitOf(wallet);
    const publicKey = key.publicKey.toString('hex');
    const payer = await resolveCheckoutPayer(wallet.address, { publicKey, stateInit }, deps());
    expect({ version: payer.version, deployed: payer.deployed }).toEqual({ version: 'V5R1', deployed: false });

    expect(await code(resolveCheckoutPayer(wallet.address, {}, deps()))).toBe(
      'CHECKOUT_PAYER_KEY_REQUIRED:payer_public_key',
    );
    expect(await code(resolveCheckoutPayer(wallet.address, { publicKey }, deps()))).toBe(
      'CHECKOUT_PAYER_KEY_REQUIRED:payer_state_init',
    );
    const otherKey = randomBytes(32).toString('hex');
    expect(await code(resolveCheckoutPayer(wallet.address, { publicKey: otherKey, stateInit }, deps()))).toBe(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH:payer_public_key',
    );
    expect(await code(resolveCheckoutPayer(wallet.address, { publicKey, stateInit: 'bm90IGEgYm9j' }, deps()))).toBe(
      'CHECKOUT_PAYER_STATE_INIT_MISMATCH:payer_state_init',
    );
  });

  it('refuses a wallet with a non-default wallet id (its transaction could not be checked as built)', async () => {
    const wallet = WalletContractV4.create({ workchain: 0, publicKey: key.publicKey, walletId: 42 });
    const stateInit = stateInitOf(wallet);
    expect(
      await code(resolveCheckoutPayer(wallet.address, { publicKey: key.publicKey.toString('hex'), stateInit }, deps())),
    ).toBe('CHECKOUT_PAYER_WALLET_UNSUPPORTED:payer_address');
  });
});

describe('verifySignedBoc isLanded', () => {
  it('accepts a BOC whose seqno the wallet already used only if the chain shows that very message executed', async () => {
    const wallet = await deploy('V5R1');
    const now = Math.floor(Date.now() / 1000);
    const request = buildSendTransactionRequest({
      network: 'mainnet',
      from: wallet.address,
      validUntil: now + 120,
      now,
      messages: [
        { to: new Address(0, randomBytes(32)), bounce: false, amount: toNano('0.1'), payload: comment('Ref#L') },
      ],
    });
    const signed = await buildSignedExternal({
      wallet,
      secretKey: key.secretKey,
      seqno: 1,
      validUntil: request.validUntil,
      messages: [
        {
          to: Address.parseFriendly(request.messages[0]!.address).address,
          value: toNano('0.1'),
          bounce: false,
          body: comment('Ref#L'),
        },
      ],
    });
    await sendBoc(blockchain, signed.boc, wallet.address);
    const hash = normalizedExternalHash(loadMessage(Cell.fromBase64(signed.boc).beginParse()));
    const asked: string[] = [];
    const landed = (answer: boolean) => (h: string) => {
      asked.push(h);
      return Promise.resolve(answer);
    };
    expect(await code(verifySignedBoc(signed.boc, request, { ...deps(), now, isLanded: landed(false) }))).toBe(
      'CHECKOUT_SEQNO_MISMATCH:boc',
    );
    expect(await verifySignedBoc(signed.boc, request, { ...deps(), now, isLanded: landed(true) })).toMatchObject({
      seqno: 1,
      normalizedHash: hash,
    });
    expect(asked).toEqual([hash, hash]);
  });
});
