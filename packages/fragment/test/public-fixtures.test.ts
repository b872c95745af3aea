/**
 * The client's parsers against Fragment answers documented in public open-source clients
 * (fixtures/public/README.md names each source), not against our own simulator.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Address } from '@ton/core';
import { decodeCommentPayload, parseCurPrice } from '../src';
import { parseInitAnswer, parseTransaction } from '../src/transaction-parsing';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(__dirname, 'fixtures', 'public', name), 'utf8')) as Record<string, unknown>;

describe('getBuyStarsLink, a live answer (bohd4nx/pyfragment)', () => {
  const tx = parseTransaction(fixture('getBuyStarsLink.pyfragment.json'), 'getBuyStarsLink');

  it('reads the TonConnect request and the confirm method', () => {
    expect(tx.validUntil).toBe(1790552821);
    expect(tx.from).toBe(`0:${'0'.repeat(64)}`);
    expect(tx.network).toBeUndefined();
    expect(tx.confirmMethod).toBe('confirmReq');
    expect(tx.confirmParams).toEqual({ id: 'REQ_ID' });
    expect(tx.messages).toHaveLength(1);
    expect(tx.messages[0]!.amount).toBe('460900000');
  });

  it("pays Fragment's known Stars wallet", () => {
    // docs/fragment-protocol.md §6.4: UQCFJEP4…OtFz, raw 0:852443f8…7c283a.
    expect(Address.parse(tx.messages[0]!.address).toRawString()).toMatch(/^0:852443f8[0-9a-f]+7c283a$/);
  });

  it('decodes the payload as returned (standard base64 with padding) to the Stars comment and its Ref#', () => {
    expect(tx.messages[0]!.payload).toMatch(/=$/);
    const comment = decodeCommentPayload(tx.messages[0]!.payload!);
    expect(comment).toMatchObject({ product: 'stars', quantity: 50, ref: 'kpJ55h3BW' });
    expect(comment.text).toBe('50 Telegram Stars \n\nRef#kpJ55h3BW');
  });

  it('without confirm_method the request is still read, with nothing to confirm', () => {
    const { confirm_method: _method, confirm_params: _params, ...bare } = fixture('getBuyStarsLink.pyfragment.json');
    const read = parseTransaction(bare, 'getBuyStarsLink');
    expect(read.confirmMethod).toBeUndefined();
    expect(read.confirmParams).toEqual({});
    expect(read.messages[0]!.amount).toBe('460900000');
  });
});

describe('initBuyStarsRequest, a live answer (bohd4nx/pyfragment)', () => {
  it('reads req_id and the amount beside myself/to_bot', () => {
    expect(parseInitAnswer(fixture('initBuyStarsRequest.pyfragment.json'), 'initBuyStarsRequest')).toEqual({
      reqId: 'REQ_ID',
      amount: '0.4609',
    });
  });

  it('the quote matches the link: 0.4609 GRAM = 460 900 000 nanoGRAM', () => {
    const tx = parseTransaction(fixture('getBuyStarsLink.pyfragment.json'), 'getBuyStarsLink');
    expect(BigInt(tx.messages[0]!.amount)).toBe(460_900_000n);
  });
});

describe('cur_price markups of public clients', () => {
  it('a span icon-ton with mini-frac and the dollars after it (dreminDev/telegram-fragment-api)', () => {
    const json = fixture('updateStarsPrices.dreminDev.json');
    expect(parseCurPrice(json.cur_price as string)).toEqual({ ton: '0.2774', usd: '1.5' });
  });

  it('a nested plain span and grouped thousands (S1qwy/fragment-api-ts)', () => {
    const html = '<span class="icon-ton">1,234<span>.000000001</span></span>\n<span>&#036;5.25</span>';
    expect(parseCurPrice(html)).toEqual({ ton: '1234.000000001', usd: '5.25' });
  });

  it('the dollar amount in an icon-usd node (protocol reference, corrections 2026-11-23)', () => {
    const html = '<div class="icon-ton">44<span class="mini-frac">.6172</span></div><div class="icon-usd">75.75</div>';
    expect(parseCurPrice(html)).toEqual({ ton: '44.6172', usd: '75.75' });
  });
});
