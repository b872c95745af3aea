/**
 * Cloudflare's marks on an answer (docs/fragment-protocol.md §19.1): a 403 or 503 with
 * `server: cloudflare`, `cf-ray`, `cf-mitigated` or the text of a challenge or block page.
 */
import { cloudflarePageKind, cloudflareStop } from '../src';

const headers =
  (values: Record<string, string>) =>
  (name: string): string | null =>
    values[name] ?? null;

it.each([
  [403, { server: 'cloudflare', 'cf-ray': '8f1c-FRA' }, 'error code: 1020', 'block'],
  [403, { 'cf-ray': '8f1c-FRA' }, '', 'block'],
  [403, {}, '<h1>Sorry, you have been blocked</h1>', 'block'],
  [503, { server: 'cloudflare' }, '<title>Just a moment...</title>', 'challenge'],
  [403, { 'cf-mitigated': 'challenge', server: 'cloudflare' }, '', 'challenge'],
  [403, {}, '<title>Attention Required! | Cloudflare</title><p>Error code: 1020</p>', 'block'],
] as const)('HTTP %i with %j and %j is a Cloudflare %s', (status, values, body, stop) => {
  expect(cloudflareStop(status, headers(values), body)).toBe(stop);
});

it.each([
  [403, {}, 'Forbidden'],
  [401, { server: 'cloudflare', 'cf-ray': '8f1c-FRA' }, 'error code: 1020'],
  [502, { server: 'cloudflare' }, 'Bad gateway'],
  [200, { server: 'cloudflare' }, '<title>Just a moment...</title>'],
] as const)('HTTP %i with %j and %j is not', (status, values, body) => {
  expect(cloudflareStop(status, headers(values), body)).toBeUndefined();
});

it('reads a page body alone (a 200 challenge page instead of the product page)', () => {
  expect(cloudflarePageKind('<title>Just a moment...</title>')).toBe('challenge');
  expect(cloudflarePageKind('<html>ajInit({})</html>')).toBeUndefined();
});
