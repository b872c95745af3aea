/**
 * Attack 24 (docs/security.md): Fragment's answer had no ceiling. A far-future `validUntil` kept
 * the signed external valid (and the wallet leased) for as long as Fragment said; a Stars or
 * Premium price far above our own price book was accepted up to the spend cap. Now a request
 * valid for more than MAX_VALIDITY_SECONDS, or asking more than MAX_PRICE_TO_BOOK_PERCENT of the
 * price book's price, is refused before anything is signed.
 */
import { Address } from '@ton/core';
import type { PurchaseRow } from '@starsgate/db';
import { WorkerHarness } from '@starsgate/worker/testing';

jest.setTimeout(180_000);

let h: WorkerHarness;

beforeAll(async () => {
  h = await WorkerHarness.start({ env: { MAX_VALIDITY_SECONDS: '600', MAX_PRICE_TO_BOOK_PERCENT: '150' } });
});

afterAll(async () => {
  await h?.close();
});

async function buy(
  amount: number,
  until = ['failed', 'sending', 'submitted', 'confirming', 'completed'],
): Promise<{ row: PurchaseRow; checks: string[]; seqnoMoved: boolean }> {
  const wallet = h.wallet('base64-v5r1');
  const seqnoBefore = await h.chain.getSeqno(Address.parseRaw(wallet.rawAddress));
  const created = await h.createPurchase({
    product: 'stars',
    username: '@alice',
    amount,
    payment_method: 'gram',
    seed: wallet.seed,
  });
  const row = await h.waitFor(created.id, until);
  const details = (row.error as { details?: Array<{ check: string }> } | null)?.details ?? [];
  return {
    row,
    checks: details.map((detail) => detail.check),
    seqnoMoved: (await h.chain.getSeqno(Address.parseRaw(wallet.rawAddress))) !== seqnoBefore,
  };
}

test('a validUntil an hour away: refused by the policy, nothing signed', async () => {
  h.sandbox.fragment!.configure({ validitySeconds: 3_600 });
  try {
    const { row, checks, seqnoMoved } = await buy(50);
    expect({ status: row.status, code: (row.error as { code?: string } | null)?.code }).toEqual({
      status: 'failed',
      code: 'PAYMENT_REJECTED_BY_POLICY',
    });
    expect(checks).toEqual(['valid_until']);
    expect(seqnoMoved).toBe(false);
  } finally {
    h.sandbox.fragment!.configure({ validitySeconds: 60 });
  }
});

test("a Stars price four times the price book's: refused by the policy, nothing signed", async () => {
  const book = await h.deps.prices.quote('stars', 61);
  const starPriceUsd = h.sandbox.fragment!.config().starPriceUsd;
  // Fragment's answer to the order (init and link) now asks four times what the book holds.
  h.sandbox.fragment!.configure({ starPriceUsd: (Number(starPriceUsd) * 4).toFixed(6) });
  try {
    const { row, checks, seqnoMoved } = await buy(61);
    expect({ status: row.status, code: (row.error as { code?: string } | null)?.code }).toEqual({
      status: 'failed',
      code: 'PAYMENT_REJECTED_BY_POLICY',
    });
    expect(checks).toEqual(['price_book']);
    expect(seqnoMoved).toBe(false);
    // The book still held the price it had before Fragment's answer.
    expect((await h.deps.prices.quote('stars', 61)).prices).toEqual(book.prices);
  } finally {
    h.sandbox.fragment!.configure({ starPriceUsd });
  }
});

test('within both bounds the same purchase completes', async () => {
  const { row } = await buy(62, ['failed', 'completed', 'reconciliation_required']);
  expect(row.status).toBe('completed');
});
