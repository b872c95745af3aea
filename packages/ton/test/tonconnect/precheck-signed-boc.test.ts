/**
 * The checks of a submitted BOC that need no chain read (docs/security.md, attack 17): only a BOC
 * the payer's stored key signed, for this checkout, may cost the operator a chain read.
 */
import { randomBytes } from 'node:crypto';
import { Address, beginCell, Cell, external, loadMessage, storeMessage, toNano } from '@ton/core';
import { isAppError } from '@starsgate/domain';
import {
  buildSendTransactionRequest,
  buildSignedExternal,
  createWalletContract,
  deriveKeyPair,
  precheckSignedBoc,
  WALLET_VERSIONS,
  type SendTransactionRequest,
  type WalletKeyPair,
  type WalletVersion,
} from '../../src';
import { comment } from '../helpers/sandbox';

const merchant = new Address(0, randomBytes(32));
const now = Math.floor(Date.now() / 1000);

function requestFor(version: WalletVersion, key: WalletKeyPair): SendTransactionRequest {
  return buildSendTransactionRequest({
    network: 'mainnet',
    from: createWalletContract(version, key.publicKey, 'mainnet').address,
    validUntil: now + 240,
    now,
    messages: [{ to: merchant, bounce: false, amount: toNano('0.3'), payload: comment('Ref#A1') }],
  });
}

async function signs(
  version: WalletVersion,
  key: WalletKeyPair,
  request: SendTransactionRequest,
  change: { amount?: bigint; validUntil?: number; signer?: WalletKeyPair } = {},
): Promise<string> {
  const signer = change.signer ?? key;
  const { boc } = await buildSignedExternal({
    wallet: createWalletContract(version, signer.publicKey, 'mainnet'),
    secretKey: signer.secretKey,
    seqno: 3,
    validUntil: change.validUntil ?? request.validUntil,
    messages: [{ to: merchant, bounce: false, value: change.amount ?? toNano('0.3'), body: comment('Ref#A1') }],
  });
  if (!change.signer) return boc;
  // Another key's request, addressed to the payer.
  const message = loadMessage(Cell.fromBase64(boc).beginParse());
  const payer = Address.parseRaw(request.from);
  return beginCell()
    .store(storeMessage(external({ to: payer, body: message.body })))
    .endCell()
    .toBoc()
    .toString('base64');
}

function refusal(boc: string, request: SendTransactionRequest, publicKey: Buffer): { code: string; field?: string } {
  try {
    precheckSignedBoc(boc, request, { publicKey, network: 'mainnet' });
  } catch (error) {
    if (isAppError(error)) return { code: error.code, field: error.details[0]?.field };
    throw error;
  }
  return { code: 'passed' };
}

describe('precheckSignedBoc', () => {
  let key: WalletKeyPair;
  beforeAll(async () => {
    key = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
  });

  it.each(WALLET_VERSIONS)('passes what the %s payer signed for the checkout, whatever its seqno', async (version) => {
    const request = requestFor(version, key);
    expect(refusal(await signs(version, key, request), request, key.publicKey)).toEqual({ code: 'passed' });
  });

  it('refuses, without the chain, what the payer key did not sign or what is not this checkout', async () => {
    const request = requestFor('V5R1', key);
    const other = await deriveKeyPair(randomBytes(32).toString('base64'), 'base64_key');
    const junk = beginCell()
      .store(
        storeMessage(
          external({ to: Address.parseRaw(request.from), body: beginCell().storeBuffer(randomBytes(80)).endCell() }),
        ),
      )
      .endCell()
      .toBoc()
      .toString('base64');
    const cases = {
      junk,
      anotherKey: await signs('V5R1', key, request, { signer: other }),
      tamperedAmount: await signs('V5R1', key, request, { amount: toNano('0.31') }),
      outlivesTheCheckout: await signs('V5R1', key, request, { validUntil: request.validUntil + 60 }),
      anotherPayer: await signs('V5R1', other, requestFor('V5R1', other)),
      notABoc: 'not base64 at all!',
    };
    const answers = Object.fromEntries(
      Object.entries(cases).map(([name, boc]) => [name, refusal(boc, request, key.publicKey)]),
    );
    expect(answers).toEqual({
      junk: { code: 'CHECKOUT_BAD_SIGNATURE', field: 'boc' },
      anotherKey: { code: 'CHECKOUT_BAD_SIGNATURE', field: 'boc' },
      tamperedAmount: { code: 'CHECKOUT_MESSAGE_MISMATCH', field: 'boc' },
      outlivesTheCheckout: { code: 'CHECKOUT_EXPIRED', field: 'boc' },
      anotherPayer: { code: 'CHECKOUT_WRONG_PAYER', field: 'boc' },
      notABoc: { code: 'CHECKOUT_BOC_INVALID', field: 'boc' },
    });
  });
});
