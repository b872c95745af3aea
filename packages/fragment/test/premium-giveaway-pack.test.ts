/**
 * The giveaway's Fragment pack read as docs/fragment-protocol.md §22 says: its comment, its
 * history rows (assumed in Premium's table, `N × M months`), its one error text (for its own
 * methods only) and a success screen that never vouches.
 */
import {
  classifyErrorText,
  FRAGMENT_PRODUCTS,
  parseCommentText,
  parseGiveawayWinners,
  parseHistoryPage,
  statusTextNamesOrder,
} from '../src';

describe('premium_giveaway pack', () => {
  it('reads the winners of a history cell only with its months beside them', () => {
    expect(parseGiveawayWinners('10 × 3 months')).toBe(10);
    expect(parseGiveawayWinners('1,000 x 12 months')).toBe(1000);
    expect(parseGiveawayWinners('3 months')).toBeUndefined();
    expect(parseGiveawayWinners('10')).toBeUndefined();
  });

  it('reads the comment with or without winners named, and never as another product', () => {
    expect(parseCommentText('Prepaid Subscription for 10 × 3 months\n\nRef#ABCDEFGH1')).toEqual({
      text: 'Prepaid Subscription for 10 × 3 months\n\nRef#ABCDEFGH1',
      ref: 'ABCDEFGH1',
      product: 'premium_giveaway',
      quantity: 10,
    });
    expect(parseCommentText('Prepaid Subscription \n\nRef#ABCDEFGH1')).toMatchObject({
      product: 'premium_giveaway',
      ref: 'ABCDEFGH1',
    });
    expect(parseCommentText('Prepaid Subscription \n\nRef#ABCDEFGH1').quantity).toBeUndefined();
    expect(parseCommentText('Telegram Premium for 3 months \n\nRef#ABCDEFGH1').product).toBe('premium');
  });

  it('"No Telegram channels found" is an ineligible recipient for its search, a missing one elsewhere', () => {
    const search = FRAGMENT_PRODUCTS.premium_giveaway.search;
    expect(classifyErrorText('No Telegram channels found', search)).toBe('RECIPIENT_INELIGIBLE');
    expect(classifyErrorText('No Telegram channels found', 'searchStarsRecipient')).toBe('RECIPIENT_NOT_FOUND');
    expect(classifyErrorText('No Telegram channels found')).toBe('RECIPIENT_NOT_FOUND');
  });

  it('the success screen never vouches for a giveaway (its wording has no evidence)', () => {
    const order = {
      product: 'premium_giveaway' as const,
      username: '@chan',
      amount: 10,
      quantities: { winners: 10, months: 3 },
    };
    expect(statusTextNamesOrder('10 Telegram Premium subscriptions for 3 months were sent to @chan.', order)).toBe(
      false,
    );
  });

  it("a shared /premium/history: each product reads its own rows and skips the other's without a format problem", () => {
    const row = (quantity: string, who: string) =>
      `<tr><td>@${who}</td><td>${quantity}</td><td><span class="icon-ton">1</span></td><td><time datetime="2026-11-28T10:00:00+00:00">Nov 28</time></td></tr>`;
    const html = `<table><tbody>${row('10 × 3 months', 'chan')}${row('3 months', 'bob')}</tbody></table>`;
    const giveaways = parseHistoryPage('premium_giveaway', html, Date.parse('2026-11-28T12:00:00Z'));
    expect(giveaways).toMatchObject({ shape: 'listed', unreadableRows: 0 });
    expect(giveaways.rows.map((r) => [r.recipient, r.quantity])).toEqual([['chan', 10]]);
    const gifts = parseHistoryPage('premium', html, Date.parse('2026-11-28T12:00:00Z'));
    expect(gifts).toMatchObject({ shape: 'listed', unreadableRows: 0 });
    expect(gifts.rows.map((r) => [r.recipient, r.quantity])).toEqual([['bob', 3]]);
  });
});
