import { Address, beginCell, Cell } from '@ton/core';
import { decodeCommentPayload, FragmentPayloadError, parseCommentText } from '../src';

// docs/fragment-protocol.md §6.2 fixtures (Fragment's layout: 35 text bytes in the root, rest in a ref).
const STARS_50 = 'te6ccgEBAQEAJwAASgAAAAA1MCBUZWxlZ3JhbSBTdGFycyAKClJlZiNTSU1URVNUMDE';
const PREMIUM_6 = 'te6ccgEBAgEANgABTgAAAABUZWxlZ3JhbSBQcmVtaXVtIGZvciA2IG1vbnRocyAKClJlZgEAFCNTSU1URVNUMDM';
// A real top-up payload from pyfragment's tests (docs/fragment-protocol.md §18): root `… top up \n\nRef#k1zCE`, ref `Y1wx`.
const TOPUP = 'te6ccgEBAgEAMAABTgAAAABUZWxlZ3JhbSBhY2NvdW50IHRvcCB1cCAKClJlZiNrMXpDRQEACFkxd3g';

describe('decodeCommentPayload', () => {
  it('decodes the one-cell Stars fixture', () => {
    expect(decodeCommentPayload(STARS_50)).toEqual({
      text: '50 Telegram Stars \n\nRef#SIMTEST01',
      ref: 'SIMTEST01',
      product: 'stars',
      quantity: 50,
    });
  });

  it('decodes the two-cell Premium fixture across the 35-byte split', () => {
    const root = Cell.fromBoc(Buffer.from(PREMIUM_6, 'base64url'))[0]!;
    expect(root.refs).toHaveLength(1); // really Fragment's split layout, not a one-cell re-encoding
    expect(decodeCommentPayload(PREMIUM_6)).toEqual({
      text: 'Telegram Premium for 6 months \n\nRef#SIMTEST03',
      ref: 'SIMTEST03',
      product: 'premium',
      quantity: 6,
    });
  });

  it('decodes the two-cell GRAM top-up vector, whose comment names no amount', () => {
    expect(decodeCommentPayload(TOPUP)).toEqual({
      text: 'Telegram account top up \n\nRef#k1zCEY1wx',
      ref: 'k1zCEY1wx',
      product: 'gram',
    });
  });

  it('accepts standard base64 with padding for the same bytes', () => {
    const standard = Buffer.from(STARS_50, 'base64url').toString('base64');
    expect(decodeCommentPayload(standard).ref).toBe('SIMTEST01');
  });

  it('decodes a USDT jetton transfer whose forward payload is the comment cell', () => {
    const comment = Cell.fromBoc(Buffer.from(STARS_50, 'base64url'))[0]!;
    const destination = Address.parseRaw(`0:${'85'.repeat(32)}`);
    const payer = Address.parseRaw(`0:${'11'.repeat(32)}`);
    const body = beginCell()
      .storeUint(0x0f8a7ea5, 32)
      .storeUint(123456789n, 64)
      .storeCoins(750000n)
      .storeAddress(destination)
      .storeAddress(payer)
      .storeBit(false)
      .storeCoins(1n)
      .storeBit(true)
      .storeRef(comment)
      .endCell();
    const decoded = decodeCommentPayload(body.toBoc().toString('base64url'));
    expect(decoded).toMatchObject({ ref: 'SIMTEST01', product: 'stars', quantity: 50 });
    expect(decoded.jetton).toEqual({
      queryId: 123456789n,
      amount: 750000n,
      destination: destination.toRawString(),
      responseDestination: payer.toRawString(),
      forwardTonAmount: 1n,
    });
  });

  it('rejects a non-comment opcode, garbage and a truncated Ref#', () => {
    const other = beginCell().storeUint(0xdeadbeef, 32).endCell().toBoc().toString('base64url');
    expect(() => decodeCommentPayload(other)).toThrow(FragmentPayloadError);
    expect(() => decodeCommentPayload('not a boc!')).toThrow(FragmentPayloadError);
    expect(() => decodeCommentPayload('te6ccgEB')).toThrow(FragmentPayloadError);
    // pyfragment issue #1: the last Ref# character dropped → must not pass as a valid order comment.
    const truncated = beginCell().storeUint(0, 32).storeStringTail('50 Telegram Stars \n\nRef#SIMTEST0').endCell();
    expect(() => decodeCommentPayload(truncated.toBoc().toString('base64url'))).toThrow(/not a known product's order/);
  });
});

describe('parseCommentText', () => {
  it.each([
    ['1000000 Telegram Stars \n\nRef#AbC123xyz', 'stars', 1_000_000],
    ['Telegram Premium for 3 months \n\nRef#AbC123xyz', 'premium', 3],
    ['Telegram Premium for 1 year \n\nRef#AbC123xyz', 'premium', 12],
  ])('%j', (text, product, quantity) => {
    expect(parseCommentText(text)).toEqual({ text, ref: 'AbC123xyz', product, quantity });
  });

  it('reads a GRAM top-up comment, which names no amount (docs/fragment-protocol.md §18)', () => {
    const text = 'Telegram account top up \n\nRef#AbC123xyz';
    expect(parseCommentText(text)).toEqual({ text, ref: 'AbC123xyz', product: 'gram' });
  });

  it.each([
    'Telegram account top up\n\nRef#AbC123xyz', // the top-up's space before the newlines too
    '50 Telegram Stars\n\nRef#AbC123xyz', // the space before the newlines is part of Fragment's text
    'Telegram Premium for 12 months \n\nRef#AbC123xyz',
    '50 Telegram Stars \n\nRef#AbC123xyz ',
  ])('rejects %j', (text) => {
    expect(() => parseCommentText(text)).toThrow(FragmentPayloadError);
  });
});
