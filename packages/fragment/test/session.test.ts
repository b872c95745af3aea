import {
  CookieJar,
  DEFAULT_RETRY_POLICY,
  encodeForm,
  parseAmountToNano,
  parseRetryAfter,
  redactCookies,
  FragmentError,
} from '../src';

describe('CookieJar', () => {
  it('parses a browser cookie header, applies Set-Cookie, deletes expired cookies', () => {
    const jar = new CookieJar('stel_ssid=abc_123; stel_dt=-180; stel_token=tok; stel_ton_token=ton');
    expect(jar.names()).toEqual(['stel_ssid', 'stel_dt', 'stel_token', 'stel_ton_token']);
    jar.setCookie('stel_ssid=new_456; expires=Thu, 01 Jan 2099 00:00:00 GMT; path=/; HttpOnly');
    jar.setCookie('stel_token=deleted; expires=Thu, 01 Jan 1970 00:00:01 GMT; Max-Age=0; path=/');
    jar.setCookie('extra=1; Max-Age=60');
    expect(jar.get('stel_ssid')).toBe('new_456');
    expect(jar.has('stel_token')).toBe(false);
    expect(jar.cookieHeader()).toBe('stel_ssid=new_456; stel_dt=-180; stel_ton_token=ton; extra=1');
  });

  it('never renders values outside cookieHeader()', () => {
    const jar = new CookieJar('stel_ssid=secret1; stel_token=secret2');
    expect(String(jar)).not.toContain('secret');
    expect(JSON.stringify({ jar })).not.toContain('secret');
    expect(redactCookies('Cookie: stel_ssid=secret1; stel_token=secret2 url /api?hash=0123abcd')).toBe(
      'Cookie: stel_ssid=[redacted]; stel_token=[redacted] url /api?hash=[redacted]',
    );
  });
});

describe('encodeForm', () => {
  it('form-encodes scalars, booleans as 1/0 and nested objects as JSON', () => {
    const body = encodeForm('getBuyStarsLink', {
      id: 'req_1',
      show_sender: false,
      transaction: true,
      lv: 'false',
      account: { address: '0:ab', chain: '-239' },
      skipped: undefined,
    });
    const params = new URLSearchParams(body);
    expect(params.get('method')).toBe('getBuyStarsLink');
    expect(params.get('show_sender')).toBe('0');
    expect(params.get('transaction')).toBe('1');
    expect(params.get('lv')).toBe('false');
    expect(JSON.parse(params.get('account')!)).toEqual({ address: '0:ab', chain: '-239' });
    expect(params.has('skipped')).toBe(false);
  });
});

describe('amounts and Retry-After', () => {
  it('parses decimal amounts exactly', () => {
    expect(parseAmountToNano('44.6172', 9)).toBe(44_617_200_000n);
    expect(parseAmountToNano('0.4412', 9)).toBe(441_200_000n);
    expect(parseAmountToNano('15.99', 6)).toBe(15_990_000n);
    expect(parseAmountToNano('1000000', 9)).toBe(1_000_000_000_000_000n);
    expect(() => parseAmountToNano('0.0000000001', 9)).toThrow(FragmentError);
    expect(() => parseAmountToNano('1e3', 9)).toThrow(FragmentError);
  });

  it('parses Retry-After seconds and dates', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('Thu, 01 Jan 2099 00:00:10 GMT', Date.parse('Thu, 01 Jan 2099 00:00:00 GMT'))).toBe(10_000);
    expect(DEFAULT_RETRY_POLICY.maxRetryAfterMs).toBe(60_000);
  });
});
