/**
 * The history parser against rows shaped like the public clients' parsers expect them
 * (S1qwy/fragment-api-ts `utils/html.ts` `parseStarsHistory`/`parsePremiumHistory`: recipient in
 * `.tm-inline-nowrap`, quantity in `.tm-value.tm-nowrap`, price in `.icon-ton`, `time[datetime]`)
 * and against variants of that markup a redesign could bring.
 */
import {
  parseHistoryDateText,
  parseHistoryMore,
  parseHistoryPage,
  parsePremiumDuration,
  parseStarsQuantity,
} from '../src';

const AT = '2026-11-21T22:50:01+00:00';
const cell = (inner: string, cls = 'table-cell-value tm-value') =>
  `<td><div class="table-cell"><div class="${cls}">${inner}</div></div></td>`;
const ton = (whole: string, frac: string) =>
  `<td><div class="table-cell"><div class="table-cell-value tm-value icon-before icon-ton">${whole}<span class="mini-frac">${frac}</span></div></div></td>`;
const when = (iso = AT) =>
  `<td class="wide-last-col"><div class="table-cell"><div class="tm-value tm-nowrap"><time datetime="${iso}">21 Nov 2026 at 22:50</time></div></div></td>`;
const table = (what: string, rows: string) =>
  `<section class="tm-section"><table class="table tm-table tm-table-fixed"><thead><tr><th>Recipient</th><th>${what}</th><th>Price</th><th>Date</th></tr></thead><tbody>${rows}</tbody></table></section>`;

describe('GRAM top-up history (/ads/history?type=topup, docs/fragment-protocol.md §18)', () => {
  const link = (handle: string) =>
    `<td><div class="table-cell"><a href="https://t.me/${handle}" class="table-cell-value tm-value tm-inline-nowrap">@${handle}</a></div></td>`;
  const gram = (amount: string) =>
    `<td><div class="table-cell"><div class="table-cell-value tm-value icon-before icon-ton">${amount}</div></div></td>`;

  it('reads the recipient link and the whole GRAM of its .icon-ton cell, with or without a header', () => {
    const rows = `<tr>${link('alice')}${gram('1,000')}${when()}</tr><tr>${link('Bob_2')}${gram('25')}${when('2026-11-21T22:40:00+00:00')}</tr>`;
    for (const html of [
      `<table><thead><tr><th>Recipient</th><th>Amount</th><th>Date</th></tr></thead><tbody>${rows}</tbody></table>`,
      `<table>${rows}</table>`,
    ]) {
      const page = parseHistoryPage('gram', html);
      expect(page.shape).toBe('listed');
      expect(page.rows).toEqual([
        expect.objectContaining({ recipient: 'alice', quantity: 1000, deliveredAt: Date.parse(AT) }),
        expect.objectContaining({ recipient: 'bob_2', quantity: 25 }),
      ]);
    }
  });

  it('a fractional amount is no top-up row: the page is unrecognized, not read as 0', () => {
    const page = parseHistoryPage('gram', `<table><tr>${link('alice')}${gram('2.5')}${when()}</tr></table>`);
    expect(page.shape).toBe('unrecognized');
    expect(page.problem).toMatch(/no top-up amount/);
  });
});

describe('Stars history', () => {
  it('reads Recipient | Stars | Price | Date rows as the public parsers do', () => {
    const html = table(
      'Stars',
      `<tr class="tm-row-selectable">${cell('@alice', 'table-cell-value tm-value tm-inline-nowrap')}${cell('1,000', 'table-cell-value tm-value tm-nowrap')}${ton('8', '.8236')}${when()}</tr>` +
        `<tr class="tm-row-selectable">${cell('@Bob_2', 'tm-inline-nowrap')}${cell('50', 'tm-value tm-nowrap')}${ton('0', '.4412')}${when('2026-11-21T22:40:00+00:00')}</tr>`,
    );
    const page = parseHistoryPage('stars', html);
    expect(page.shape).toBe('listed');
    expect(page.rows).toEqual([
      {
        recipient: 'alice',
        recipientText: '@alice',
        quantity: 1000,
        deliveredAt: Date.parse(AT),
        text: '@alice | 1,000 | 8.8236 | 21 Nov 2026 at 22:50',
      },
      expect.objectContaining({ recipient: 'bob_2', quantity: 50, deliveredAt: Date.parse('2026-11-21T22:40:00Z') }),
    ]);
  });

  it.each([
    [
      'no header, other class names',
      `<table><tr>${cell('@alice', 'who')}${cell('1,000', 'n')}${ton('8', '.8236')}${when()}</tr></table>`,
    ],
    ['a recipient without @', table('Stars', `<tr>${cell('alice')}${cell('1,000')}${ton('8', '.8236')}${when()}</tr>`)],
    [
      'a narrow no-break space as separator',
      table('Stars', `<tr>${cell('@alice')}${cell('1\u202f000')}${ton('8', '.8236')}${when()}</tr>`),
    ],
    [
      '"Stars" after the number',
      table('Quantity', `<tr>${cell('@alice')}${cell('1,000 Stars')}${ton('8', '.8236')}${when()}</tr>`),
    ],
    [
      'the price first, in dollars',
      `<table><tr>${cell('$15.00')}${cell('@alice')}${cell('1,000')}${when()}</tr></table>`,
    ],
    [
      'a date without a time element',
      table(
        'Stars',
        `<tr>${cell('@alice')}${cell('1,000')}${ton('8', '.8236')}${cell('21 Nov 2026 at 22:50:01 UTC')}</tr>`,
      ),
    ],
    ['no closing tags', `<table><tr><td>@alice<td>1,000<td>8.8236 TON<td><time datetime="${AT}">x</time></table>`],
  ])('tolerates %s', (_name, html) => {
    const page = parseHistoryPage('stars', html);
    expect(page.shape).toBe('listed');
    expect(page.rows).toEqual([
      expect.objectContaining({ recipient: 'alice', quantity: 1000, deliveredAt: Date.parse(AT) }),
    ]);
  });

  it('keeps the Ref# when a row shows one, of any length', () => {
    const html = table(
      'Stars',
      `<tr>${cell('@alice<div class="tm-ref">Ref#Ab3dEf78XyZ</div>')}${cell('100')}${ton('0', '.8823')}${when()}</tr>`,
    );
    expect(parseHistoryPage('stars', html).rows[0]).toMatchObject({
      recipient: 'alice',
      quantity: 100,
      ref: 'Ab3dEf78XyZ',
    });
  });

  it('an empty history is empty, not unrecognized', () => {
    expect(
      parseHistoryPage(
        'stars',
        table('Stars', '<tr><td colspan="4"><div class="tm-table-empty">No purchases yet</div></td></tr>'),
      ).shape,
    ).toBe('empty');
    expect(parseHistoryPage('stars', table('Stars', '')).shape).toBe('empty');
    expect(parseHistoryPage('stars', '<section><div class="tm-empty">Nothing here yet</div></section>').shape).toBe(
      'empty',
    );
  });

  it('an unknown shape is unrecognized, with what could not be read', () => {
    const cards = `<div class="tm-history-list"><div class="card"><div>alice</div><div>1,000 ★</div><div title="${AT}">21 Nov</div></div></div>`;
    expect(parseHistoryPage('stars', cards)).toMatchObject({ shape: 'unrecognized', rows: [] });
    // The old invented layout: a title phrase instead of a quantity cell.
    const phrase = `<table><tr><td>1,000 Telegram Stars to @alice</td>${ton('8', '.8236')}${when()}</tr></table>`;
    expect(parseHistoryPage('stars', phrase)).toMatchObject({ shape: 'unrecognized', unreadableRows: 1 });
    const undated = table('Stars', `<tr>${cell('@alice')}${cell('1,000')}${ton('8', '.8236')}<td></td></tr>`);
    expect(parseHistoryPage('stars', undated).shape).toBe('unrecognized');
    expect(parseHistoryPage('stars', undated).problem).toMatch(/no date/);
  });

  it('one unreadable row among readable ones makes the page unrecognized but keeps the rows', () => {
    const html = table(
      'Stars',
      `<tr>${cell('@alice')}${cell('50')}${ton('0', '.4412')}${when()}</tr><tr>${cell('@bob')}${cell('lots')}${ton('0', '.4412')}${when()}</tr>`,
    );
    expect(parseHistoryPage('stars', html)).toMatchObject({
      shape: 'unrecognized',
      unreadableRows: 1,
      rows: [expect.objectContaining({ recipient: 'alice' })],
    });
  });

  it('reads the "show more" offset', () => {
    const html =
      table('Stars', `<tr>${cell('@alice')}${cell('50')}${ton('0', '.4412')}${when()}</tr>`) +
      '<div class="js-load-more" data-next-offset="42">Show more</div>';
    expect(parseHistoryPage('stars', html).nextOffset).toBe('42');
  });
});

describe('Premium history', () => {
  it.each([
    ['3 months', 3],
    ['6 months', 6],
    ['1 year', 12],
    ['12 months', 12],
  ])('reads Recipient | Duration (%s) | Price | Date', (duration, months) => {
    const html = table(
      'Duration',
      `<tr>${cell('@bob', 'tm-inline-nowrap')}${cell(duration, 'tm-value tm-nowrap')}${ton('9', '.4059')}${when()}</tr>`,
    );
    const page = parseHistoryPage('premium', html);
    expect(page.shape).toBe('listed');
    expect(page.rows[0]).toMatchObject({ recipient: 'bob', quantity: months, deliveredAt: Date.parse(AT) });
  });

  it('a Stars-shaped row is not a Premium row', () => {
    const html = table('Duration', `<tr>${cell('@bob')}${cell('1,000')}${ton('9', '.4059')}${when()}</tr>`);
    expect(parseHistoryPage('premium', html).shape).toBe('unrecognized');
  });
});

describe('quantities and durations', () => {
  it.each([
    ['50', 50],
    ['1,000', 1000],
    ['1 000 000', 1_000_000],
    ['10,000 Stars', 10_000],
    ['1,00', undefined],
    ['0.4412', undefined],
    ['', undefined],
  ])('Stars %j → %j', (text, value) => expect(parseStarsQuantity(text)).toBe(value));

  it.each([
    ['3 months', 3],
    ['1 year', 12],
    ['a year', 12],
    ['1,000', undefined],
  ])('Premium %j → %j', (text, value) => expect(parsePremiumDuration(text)).toBe(value));
});

describe('date cells without a datetime attribute (read as UTC)', () => {
  const NOW = Date.parse('2026-11-26T02:00:00Z');

  it.each([
    ['Jan 12 at 14:05', '2026-01-12T14:05:00Z'],
    ['Dec 31, 2025 at 23:59', '2025-12-31T23:59:00Z'],
    ['21 Nov 2026 at 22:50', '2026-11-21T22:50:00Z'],
    ['12 Jan 2025, 14:05', '2025-01-12T14:05:00Z'],
    ['November 25 at 9:30 PM', '2026-11-25T21:30:00Z'],
    ['Sept 3 at 10:00', '2026-09-03T10:00:00Z'],
    ['Today at 01:15', '2026-11-26T01:15:00Z'],
    ['Yesterday at 23:59', '2026-11-25T23:59:00Z'],
    // A short date more than a day ahead of now is last year's.
    ['Nov 28 at 10:00', '2025-11-28T10:00:00Z'],
    ['Nov 26 at 23:00', '2026-11-26T23:00:00Z'],
    // A cell that names its zone is read in it.
    ['21 Nov 2026 at 22:50:01 UTC', '2026-11-21T22:50:01Z'],
    ['Jan 12 at 14:05 GMT+3', '2026-01-12T11:05:00Z'],
  ])('%j → %s', (text, iso) => {
    expect(parseHistoryDateText(text, NOW)).toBe(Date.parse(iso));
  });

  it.each([
    'Janitor 12 at 14:05',
    'Feb 30, 2024 at 10:00',
    'Jan 12 at 24:05',
    'Jan 12',
    '14:05',
    'soon',
    '13 at 14:05',
  ])('rejects %j', (text) => expect(parseHistoryDateText(text, NOW)).toBeUndefined());

  it('reads a row whose date is a time.short cell, as the stored mock of the history page shows it', () => {
    const html = table(
      'Stars',
      `<tr>${cell('@alice')}${cell('1,000')}${ton('1,764', '.7059')}<td><div class="table-cell"><time class="short">Jan 12 at 14:05</time></div></td></tr>`,
    );
    const page = parseHistoryPage('stars', html, NOW);
    expect(page.shape).toBe('listed');
    expect(page.rows[0]).toMatchObject({
      recipient: 'alice',
      quantity: 1000,
      deliveredAt: Date.parse('2026-01-12T14:05:00Z'),
    });
  });

  it('a text date ahead of now disproves the UTC assumption: the row is unreadable, never a newer delivery', () => {
    // Written in UTC+3 a minute ago: read as UTC it lies three hours ahead.
    const html = table(
      'Stars',
      `<tr>${cell('@alice')}${cell('1,000')}${ton('8', '.8236')}<td><time class="short">Nov 26 at 04:59</time></td></tr>`,
    );
    const page = parseHistoryPage('stars', html, NOW);
    expect(page).toMatchObject({ shape: 'unrecognized', rows: [] });
    expect(page.problem).toMatch(/date "Nov 26 at 04:59" lies ahead of now: not written in UTC/);
    // A few minutes ahead is clock difference, not a zone.
    const close = html.replace('04:59', '02:04');
    expect(parseHistoryPage('stars', close, NOW).shape).toBe('listed');
  });
});

describe('"load more" answers', () => {
  const row = `<tr>${cell('@alice')}${cell('50')}${ton('0', '.4412')}${when()}</tr>`;
  const foot = (offset: string) =>
    `<tr><td colspan="4"><div class="tm-load-more" data-next-offset="${offset}">Show more</div></td></tr>`;

  it('reads the rows from body and the next offset from foot', () => {
    const more = parseHistoryMore('stars', { ok: true, body: row + row, foot: foot('17') }, 'getPremiumHistory');
    expect(more).toMatchObject({ shape: 'listed', nextOffset: '17' });
    expect(more.rows).toHaveLength(2);
  });

  it('an empty foot is the end of the history; an empty body is no more rows, not an empty history', () => {
    expect(parseHistoryMore('stars', { ok: true, body: row, foot: '' }, 'getPremiumHistory')).not.toHaveProperty(
      'nextOffset',
    );
    expect(parseHistoryMore('stars', { ok: true, body: '', foot: '' }, 'getPremiumHistory')).toMatchObject({
      shape: 'listed',
      rows: [],
    });
  });

  it('an offset in the body is not where the rows continue: only the foot says so', () => {
    const more = parseHistoryMore('stars', { ok: true, body: row + foot('9'), foot: '' }, 'getPremiumHistory');
    expect(more.nextOffset).toBeUndefined();
  });

  it.each([
    ['the old html/next_offset shape', { ok: true, html: row, next_offset: '17' }, /keys: ok, html, next_offset/],
    ['a body without a foot', { ok: true, body: row }, /keys: ok, body/],
    ['a foot that is not HTML', { ok: true, body: row, foot: 17 }, /keys: ok, body, foot/],
  ])('%s is unrecognized, never the end of the history', (_name, json, keys) => {
    const more = parseHistoryMore('stars', json, 'getPremiumHistory');
    expect(more).toMatchObject({ shape: 'unrecognized', rows: [] });
    expect(more.problem).toMatch(/^getPremiumHistory: answer without the table's body and foot/);
    expect(more.problem).toMatch(keys);
  });

  it('unreadable rows in the body make it unrecognized', () => {
    const cards = '<div class="card">alice 1,000</div>';
    expect(parseHistoryMore('stars', { ok: true, body: cards, foot: '' }, 'getPremiumHistory').shape).toBe(
      'unrecognized',
    );
  });
});
