/**
 * Fragment's answers as the client reads them, through its real HTTP transport: a local server
 * plays Fragment with a usable page (ajInit with an API hash) and answers each API call with a
 * generated status, content type and body (search results with odd `found` objects, price HTML,
 * JSON of the wrong shape, HTML error pages, truncated JSON). Property: searchRecipient and
 * quoteQuantity return a well-formed result or throw FragmentError, within the bound.
 */
import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import fc from 'fast-check';
import { FragmentClient, FragmentError } from '@starsgate/fragment';
import { assertProperty, printSummary, FUZZ_TEST_TIMEOUT_MS } from './support/fuzz-settings';

jest.setTimeout(FUZZ_TEST_TIMEOUT_MS);

interface UpstreamAnswer {
  status: number;
  contentType: string;
  body: string;
}

let server: Server;
let baseUrl: string;
/** What the fake Fragment answers to the next API call. */
let next: UpstreamAnswer = { status: 200, contentType: 'application/json', body: '{}' };

beforeAll(async () => {
  const app = express();
  app.get(/.*/, (_req, res) => {
    res
      .type('html')
      .send('<html><script>ajInit({"version":1,"apiUrl":"\\/api?hash=0123abcd","state":{}});</script></html>');
  });
  app.post(/.*/, (_req, res) => {
    res.status(next.status).type(next.contentType).send(next.body);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  printSummary('fragment-answers');
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

const found = fc.oneof(
  fc.record(
    {
      recipient: fc.oneof(fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 1 })),
      name: fc.oneof(
        fc.string({ maxLength: 40 }),
        fc.constantFrom('&amp;lt;b&gt;', '&#99999999;', '&#xD800;'),
        fc.jsonValue({ maxDepth: 1 }),
      ),
      photo: fc.oneof(
        fc.constantFrom('<img src="https://cdn/x.jpg">', "<img src='&#x6a;avascript:1'>", '<img src=">'),
        fc.string({ maxLength: 40 }),
        fc.jsonValue({ maxDepth: 1 }),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 2 }),
);
const curPrice = fc.oneof(
  fc
    .tuple(fc.nat(99_999), fc.nat(99_999), fc.nat(99_999))
    .map(
      ([ton, frac, usd]) =>
        `<div class="tm-value icon-before icon-ton">${ton}<span class="mini-frac">.${frac}</span></div><div class="tm-value icon-usd">$${usd}.00</div>`,
    ),
  fc.string({ maxLength: 80 }),
);
const jsonBody = fc.oneof(
  fc.record({ found }, { requiredKeys: [] }).map((value) => JSON.stringify(value)),
  fc.record({ cur_price: fc.oneof(curPrice, fc.jsonValue({ maxDepth: 1 })) }).map((value) => JSON.stringify(value)),
  fc
    .record({
      error: fc.oneof(
        fc.constantFrom(
          'Access denied',
          'No Telegram users found.',
          'Please verify your account',
          'Too many requests',
          'Price was changed',
        ),
        fc.string({ maxLength: 40 }),
      ),
    })
    .map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  fc.constantFrom('', '{', '{"found":', 'null', '[]', '<html>Just a moment...</html>', '\ufeff{}'),
);
const answer: fc.Arbitrary<UpstreamAnswer> = fc.record({
  status: fc.oneof(fc.constant(200), fc.constantFrom(200, 302, 400, 403, 404, 429, 500, 502, 503)),
  contentType: fc.constantFrom('application/json', 'text/html', 'text/plain', 'application/json; charset=utf-16'),
  body: jsonBody,
});

test('search results and prices from any answer: a result or a FragmentError', async () => {
  await assertProperty(
    'FragmentClient search and quote',
    fc.tuple(answer, fc.constantFrom('search' as const, 'quote' as const)),
    async ([upstream, call]) => {
      next = upstream;
      // A fresh client per case: no hash cached or pacing carried from the previous answer.
      const client = new FragmentClient({
        baseUrl,
        cookies: '',
        timeoutMs: 2_000,
        retry: { maxTries: 1, baseDelayMs: 1, maxDelayMs: 1, maxRetryAfterMs: 0 },
      });
      try {
        if (call === 'search') {
          const recipient = await client.searchRecipient('stars', '@alice', 50);
          expect(typeof recipient.recipient).toBe('string');
          expect(recipient.recipient.length).toBeGreaterThan(0);
          expect(typeof recipient.name).toBe('string');
        } else {
          const quote = await client.quoteQuantity('stars', 50);
          expect(typeof quote.gramNano).toBe('bigint');
        }
      } catch (error) {
        if (!(error instanceof FragmentError))
          throw new Error(
            `a raw ${(error as Error)?.name} escaped: ${(error as Error)?.message}\n  answer: ${JSON.stringify(upstream).slice(0, 300)}`,
            {
              cause: error,
            },
          );
      }
    },
    150,
  );
});
