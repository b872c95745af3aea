/**
 * FRAGMENT_PROXY_URL as the worker reads it: one proxy for every login, one per login in the order
 * of FRAGMENT_COOKIES, or a refusal naming both counts; a malformed value is refused without
 * echoing it (it may hold the proxy's password).
 */
import { randomBytes } from 'node:crypto';
import { proxyForLogin } from '@starsgate/fragment';
import { loadWorkerConfig } from '../src/config';

const COOKIES = ['a', 'b', 'c']
  .map((n) => `stel_ssid=${n.repeat(18)}_0000000000000000001; stel_dt=0; stel_token=${n.repeat(64)}`)
  .join(' | ');

const load = (proxy: string | undefined) =>
  loadWorkerConfig({
    NODE_ENV: 'test',
    STARSGATE_SECRET_KEY: `t1:${randomBytes(32).toString('base64')}`,
    FRAGMENT_COOKIES: COOKIES,
    ...(proxy !== undefined ? { FRAGMENT_PROXY_URL: proxy } : {}),
  });

test('none, one for all, or one per login', () => {
  expect(load(undefined).fragmentProxyUrls).toEqual([]);
  const one = load('http://user:pw@proxy.example:3128').fragmentProxyUrls;
  expect([0, 1, 2].map((index) => proxyForLogin(one, index))).toEqual(
    Array(3).fill('http://user:pw@proxy.example:3128'),
  );
  const each = load('http://p1:8080 | https://p2:8443 |http://p3:3128').fragmentProxyUrls;
  expect([0, 1, 2].map((index) => proxyForLogin(each, index))).toEqual([
    'http://p1:8080',
    'https://p2:8443',
    'http://p3:3128',
  ]);
});

test('a count that matches neither, or a value that is no proxy URL, is refused', () => {
  expect(() => load('http://p1:8080 | http://p2:8080')).toThrow(/FRAGMENT_PROXY_URL lists 2 proxies for 3 logins/);
  let message = '';
  try {
    load('socks5://user:hunter2@p1:1080');
  } catch (error) {
    message = (error as Error).message;
  }
  expect(message).toMatch(/FRAGMENT_PROXY_URL/);
  expect(message).not.toContain('hunter2');
});
