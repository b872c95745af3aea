/**
 * The gateway's read-cache and upstream series, moved by real availability checks against the
 * Fragment simulator: a first check is a miss and one Fragment look-up, a repeat is a hit.
 */
import request from 'supertest';
import { parsePrometheusText, sampleSum } from '@starsgate/platform/testing';
import { useFragmentGateways } from './support/fragment-sandbox';

const suite = useFragmentGateways({});

test('an availability miss costs one Fragment look-up; the repeat is a cache hit', async () => {
  const gw = await suite.gateway();
  const body = { product: 'stars', username: '@bob', amount: 50, payment_method: 'gram' };
  const scrape = async () => parsePrometheusText((await request(gw.adminApp).get('/metrics')).text);
  const before = await scrape();
  expect((await request(gw.app).post('/api/v1/availability/check').send(body)).status).toBe(200);
  expect((await request(gw.app).post('/api/v1/availability/check').send(body)).status).toBe(200);
  const after = await scrape();
  const delta = (name: string, labels: Record<string, string>) =>
    sampleSum(after, name, labels) - sampleSum(before, name, labels);
  expect(delta('starsgate_read_cache_total', { read: 'availability', result: 'miss' })).toBe(1);
  expect(delta('starsgate_read_cache_total', { read: 'availability', result: 'hit' })).toBe(1);
  expect(
    delta('starsgate_upstream_requests_total', {
      upstream: 'fragment_reads',
      method: 'searchRecipient',
      outcome: 'ok',
    }),
  ).toBe(1);
  expect(
    delta('starsgate_upstream_request_duration_seconds_count', {
      upstream: 'fragment_reads',
      method: 'searchRecipient',
    }),
  ).toBe(1);
  expect(
    sampleSum(after, 'starsgate_http_request_duration_seconds_count', { route: '/api/v1/availability/check' }),
  ).toBe(2);
});

test('the gateway reports its TON cell hashing on node:crypto (the start-up self-check of the build-time patch)', async () => {
  const gw = await suite.gateway();
  const samples = parsePrometheusText((await request(gw.adminApp).get('/metrics')).text);
  expect(sampleSum(samples, 'starsgate_ton_native_crypto')).toBe(1);
});
