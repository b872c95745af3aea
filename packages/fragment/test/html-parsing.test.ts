import {
  extractApiHash,
  htmlToText,
  isCloudflareChallenge,
  parseAjInit,
  parseCurPrice,
  parseImgSrc,
  pageLoggedIn,
  pageWalletLoggedIn,
  parseOptionPrices,
  parseWalletInit,
  unescapeHtml,
} from '../src';

describe('unescapeHtml', () => {
  it.each([
    ['You can&#39;t gift', "You can't gift"],
    ['&#036;75.75', '$75.75'],
    ['&#36;1', '$1'],
    ['&#x24;2', '$2'],
    ['Erin O&#039;Neil &amp; co', "Erin O'Neil & co"],
    ['&lt;b&gt; &quot;x&quot; &apos;y&apos;', '<b> "x" \'y\''],
    ['&amp;#39;', '&#39;'], // one pass: no double unescaping
    ['&unknown; &#xZZ;', '&unknown; &#xZZ;'],
  ])('%j → %j', (input, output) => {
    expect(unescapeHtml(input)).toBe(output);
  });
});

describe('prices', () => {
  // docs/fragment-protocol.md §5.2/§9: the cur_price node of updateStarsPrices (5,050 stars, 2026).
  const CUR_PRICE =
    '<div class="tm-value icon-before icon-ton">44<span class="mini-frac">.6172</span></div>' +
    '<div class="tm-radio-desc">~&nbsp;&#036;75.75</div>';

  it('parses the TON integer part + mini-frac and the escaped dollar amount', () => {
    expect(parseCurPrice(CUR_PRICE)).toEqual({ ton: '44.6172', usd: '75.75' });
  });

  it('handles grouping separators, $ written plainly and a price without fraction', () => {
    const html =
      '<span class="icon-before icon-ton tm-value">1,234<span class="mini-frac">.5</span></span> <span>$ 2,099</span>';
    expect(parseCurPrice(html)).toEqual({ ton: '1234.5', usd: '2099' });
    expect(parseCurPrice('<div class="tm-value icon-ton">3</div><div>&#36;5.1</div>')).toEqual({
      ton: '3',
      usd: '5.1',
    });
  });

  it('returns undefined instead of guessing when a part is missing', () => {
    expect(parseCurPrice('<div class="tm-value">44</div>&#036;75.75')).toBeUndefined();
    expect(parseCurPrice('<div class="icon-ton">44<span class="mini-frac">.6172</span></div>')).toBeUndefined();
    expect(parseCurPrice('<div class="icon-ton">n/a</div>$1')).toBeUndefined();
  });

  it('parses the Premium option labels of /premium/gift', () => {
    const option = (months: number, title: string, ton: string, frac: string, usd: string, badge = '') => `
      <label class="tm-form-radio-item">
        <input type="radio" class="tm-form-radio" name="months" value="${months}"${months === 3 ? ' checked' : ''}>
        <div class="tm-form-radio-label">
          <div class="tm-radio-label">${title}${badge ? ` <span class="tm-radio-label-badge">${badge}</span>` : ''}</div>
          <div class="tm-value icon-before icon-ton">${ton}<span class="mini-frac">${frac}</span></div>
          <div class="tm-radio-desc">&#036;${usd}</div>
        </div>
      </label>`;
    const html = `<form>${option(3, '3 months', '7', '.0530', '11.99')}${option(6, '6 months', '9', '.4059', '15.99', '-33%')}${option(
      12,
      '12 months',
      '17',
      '.0530',
      '28.99',
      '-40%',
    )}<label><input name="other" value="1"></label></form>`;
    const options = parseOptionPrices(html, 'months');
    expect([...options.keys()]).toEqual([3, 6, 12]);
    expect(options.get(3)).toEqual({ ton: '7.0530', usd: '11.99' });
    expect(options.get(6)).toEqual({ ton: '9.4059', usd: '15.99' });
    expect(options.get(12)).toEqual({ ton: '17.0530', usd: '28.99' });
  });
});

describe('page bootstrap', () => {
  const PAGE = `<!DOCTYPE html><html><body><script>
    ajInit({"version":1072,"apiUrl":"\\/api?hash=0a1b2c3d4e5f607182","unauth":false,"state":{"tonRate":1.335,"mode":"new","dh":"1735000000","x":"}"}});
    Wallet.init({"address":"0:${'ab'.repeat(32)}","ton_proof":"0123456789abcdef01","logged_in":true,"version":2});
  </script></body></html>`;

  it('reads hash, version, tonRate (as written) and state', () => {
    const info = parseAjInit(PAGE);
    expect(info.apiHash).toBe('0a1b2c3d4e5f607182');
    expect(info.version).toBe(1072);
    expect(info.tonRate).toBe('1.335');
    expect(info.state).toMatchObject({ mode: 'new', dh: '1735000000' });
    expect(extractApiHash(PAGE)).toBe('0a1b2c3d4e5f607182');
  });

  it('reads Wallet.init', () => {
    expect(parseWalletInit(PAGE)).toEqual({ address: `0:${'ab'.repeat(32)}`, loggedIn: true, tonConnectVersion: 2 });
    expect(parseWalletInit('<html></html>')).toBeUndefined();
  });

  it('finds no hash in a logged-out page', () => {
    expect(parseAjInit('<html><a href="/login">Log in</a></html>').apiHash).toBeUndefined();
  });

  it('reads the login from the page state, not from the hash (logged-out pages carry one too)', () => {
    const page = (aj: string, wallet: string) =>
      `<script>ajInit(${aj});</script><script>Wallet.init(${wallet});</script>`;
    const hash = '"apiUrl":"\\/api?hash=0123456789abcdef01"';
    expect(pageLoggedIn(page(`{${hash},"state":{"unAuth":true}}`, '{"logged_in":false}'))).toBe(false);
    expect(pageLoggedIn(page(`{${hash},"unAuth":true,"state":{}}`, '{}'))).toBe(false);
    expect(pageLoggedIn(page(`{${hash},"state":{"unAuth":false}}`, '{"logged_in":true}'))).toBe(true);
    expect(pageLoggedIn(page(`{${hash},"state":{}}`, '{}'))).toBeUndefined();
  });

  it("reads Wallet.init's logged_in as the TON wallet's login, never as the Telegram login", () => {
    const page = (aj: string, wallet: string) =>
      `<script>ajInit(${aj});</script><script>Wallet.init(${wallet});</script>`;
    const hash = '"apiUrl":"\\/api?hash=0123456789abcdef01"';
    // A Telegram login without stel_ton_token, as Fragment renders it.
    const telegramOnly = page(`{${hash},"state":{"unAuth":false}}`, '{"ton_proof":"ab","logged_in":false,"version":2}');
    expect(pageLoggedIn(telegramOnly)).toBe(true);
    expect(pageWalletLoggedIn(telegramOnly)).toBe(false);
    const noState = page(`{${hash},"state":{}}`, '{"logged_in":false,"version":2}');
    expect(pageLoggedIn(noState)).toBeUndefined();
    expect(pageWalletLoggedIn(noState)).toBe(false);
    expect(pageWalletLoggedIn(page(`{${hash},"state":{}}`, '{"logged_in":true,"version":2}'))).toBe(true);
  });

  it('recognises a Cloudflare challenge', () => {
    expect(isCloudflareChallenge('<title>Just a moment...</title>')).toBe(true);
    expect(isCloudflareChallenge(PAGE)).toBe(false);
  });

  it('reads img src and text of HTML snippets', () => {
    expect(parseImgSrc('<img src="https://cdn.example/a.jpg?x=1&amp;y=2" />')).toBe(
      'https://cdn.example/a.jpg?x=1&y=2',
    );
    expect(parseImgSrc('<span></span>')).toBeUndefined();
    expect(htmlToText('<div class="popup"><b>Verify</b> your&nbsp;wallet<br>at <a>KYC</a></div>')).toBe(
      'Verify your wallet\nat KYC',
    );
  });
});
