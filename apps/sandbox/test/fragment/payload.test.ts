import { Address, beginCell, Cell } from '@ton/core';
import {
  buildCommentCell,
  commentText,
  decodePayload,
  encodePayload,
  extractRef,
  readComment,
} from '../../src/fragment/comment-payload';
import { buildJettonTransfer, OP_JETTON_TRANSFER, parseJettonTransfer } from '../../src/fragment/jetton-payload';

// Standard base64 with padding, as Fragment's live answers carry it (fixtures/public in packages/fragment).
const STARS_FIXTURE = 'te6ccgEBAQEAJwAASgAAAAA1MCBUZWxlZ3JhbSBTdGFycyAKClJlZiNTSU1URVNUMDE=';
const PREMIUM_FIXTURE = 'te6ccgEBAgEANgABTgAAAABUZWxlZ3JhbSBQcmVtaXVtIGZvciA2IG1vbnRocyAKClJlZgEAFCNTSU1URVNUMDM=';

describe('comment payload (docs/fragment-protocol.md §6.2)', () => {
  it('reproduces the one-cell Stars fixture byte for byte', () => {
    const text = commentText({ product: 'stars', quantity: 50 }, 'SIMTEST01');
    expect(text).toBe('50 Telegram Stars \n\nRef#SIMTEST01');
    expect(encodePayload(buildCommentCell(text))).toBe(STARS_FIXTURE);
  });

  it('reproduces the two-cell Premium fixture byte for byte', () => {
    const text = commentText({ product: 'premium', months: 6 }, 'SIMTEST03');
    expect(text).toBe('Telegram Premium for 6 months \n\nRef#SIMTEST03');
    const cell = buildCommentCell(text);
    expect(cell.refs).toHaveLength(1);
    expect(cell.bits.length).toBe(32 + 35 * 8);
    expect(encodePayload(cell)).toBe(PREMIUM_FIXTURE);
  });

  it('names 12 months "1 year" and 3 months "3 months"', () => {
    expect(commentText({ product: 'premium', months: 12 }, 'A1')).toBe('Telegram Premium for 1 year \n\nRef#A1');
    expect(commentText({ product: 'premium', months: 3 }, 'A1')).toBe('Telegram Premium for 3 months \n\nRef#A1');
  });

  it('differs from a standard snake-encoded comment with the same text', () => {
    const text = commentText({ product: 'premium', months: 6 }, 'SIMTEST03');
    const standard = beginCell().storeUint(0, 32).storeStringTail(text).endCell();
    expect(readComment(standard)).toBe(text);
    expect(standard.hash().equals(buildCommentCell(text).hash())).toBe(false);
  });

  it('reads back the text and the Ref code, from base64url or base64', () => {
    const cell = decodePayload(PREMIUM_FIXTURE);
    const text = readComment(cell)!;
    expect(text).toBe('Telegram Premium for 6 months \n\nRef#SIMTEST03');
    expect(extractRef(text)).toBe('SIMTEST03');
    const b64 = Cell.fromBoc(
      Buffer.from(Buffer.from(PREMIUM_FIXTURE, 'base64').toString('base64url'), 'base64url'),
    )[0]!;
    expect(b64.hash().equals(cell.hash())).toBe(true);
  });

  it('snakes very long comments instead of overflowing a cell', () => {
    const text = 'x'.repeat(400);
    const cell = buildCommentCell(text);
    expect(readComment(cell)).toBe(text);
  });
});

describe('jetton transfer payload (docs/fragment-protocol.md §6.3)', () => {
  it('round-trips the TEP-74 transfer fields with the comment in a ref', () => {
    const destination = Address.parse('0:852443f8' + '00'.repeat(28));
    const payer = Address.parse('0:' + '11'.repeat(32));
    const comment = buildCommentCell('50 Telegram Stars \n\nRef#SIMTEST01');
    const body = buildJettonTransfer({
      queryId: 42n,
      amount: 750000n,
      destination,
      responseDestination: payer,
      forwardTonAmount: 1n,
      forwardPayload: comment,
    });
    const s = body.beginParse();
    expect(s.loadUint(32)).toBe(OP_JETTON_TRANSFER);
    const parsed = parseJettonTransfer(body)!;
    expect(parsed.queryId).toBe(42n);
    expect(parsed.amount).toBe(750000n);
    expect(parsed.destination.equals(destination)).toBe(true);
    expect(parsed.responseDestination.equals(payer)).toBe(true);
    expect(parsed.forwardTonAmount).toBe(1n);
    expect(parsed.forwardPayload.hash().equals(comment.hash())).toBe(true);
    expect(body.refs).toHaveLength(1);
  });
});
