/**
 * Attack 23 (docs/security.md): with tracing on, a body that was not JSON reached the traces
 * through the parser's error message (`Unexpected token 'z', "zebra quar"... is not valid JSON`:
 * the first characters of a seed sent as a raw phrase), and a public request's `traceparent` made
 * the gateway's span a child in a trace the client chose. Now no body text reaches a span, and a
 * public request starts its own trace with the client's only linked.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '@starsgate/platform/testing';
import { startStack, type RunningStack } from '../support/running-stack';

/** A seed phrase sent as the raw body, as a client that forgot to wrap it in JSON would. */
const RAW_SEED = 'zebra quartz lemon tiger orbit velvet canyon mirror basket ladder spirit wagon';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  kind: number;
  name: string;
  attributes?: Array<{ key: string; value: { stringValue?: string; intValue?: number | string } }>;
  links?: Array<{ traceId: string; spanId: string }>;
}

/** An OTLP/HTTP JSON collector: keeps every export's raw text. */
async function startCollector(): Promise<{ server: Server; url: string; exports: string[] }> {
  const exports: string[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      exports.push(text);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}

function spansOf(exports: string[]): OtlpSpan[] {
  return exports.flatMap(
    (text) =>
      (
        JSON.parse(text) as { resourceSpans?: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> }
      ).resourceSpans?.flatMap((resource) => resource.scopeSpans.flatMap((scope) => scope.spans)) ?? [],
  );
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((entry) => entry.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

describe('traces of a running stack', () => {
  let stack: RunningStack;
  let collector: Awaited<ReturnType<typeof startCollector>>;
  beforeAll(async () => {
    collector = await startCollector();
    stack = await startStack({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
    collector?.server.close();
  });

  it('hold no request body text, and a public request starts its own trace linked to the client’s', async () => {
    const clientTraceId = randomBytes(16).toString('hex');
    const clientSpanId = randomBytes(8).toString('hex');
    const response = await fetch(`${stack.gatewayUrl}/api/v1/purchases`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${clientTraceId}-${clientSpanId}-01` },
      body: RAW_SEED,
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('MALFORMED_JSON');

    const server = await waitFor(
      () =>
        spansOf(collector.exports).find(
          (span) => span.kind === 2 && attribute(span, 'http.route') === '/api/v1/purchases',
        ) ??
        spansOf(collector.exports).find(
          (span) =>
            span.kind === 2 &&
            String(attribute(span, 'url.path') ?? attribute(span, 'http.target')) === '/api/v1/purchases',
        ),
      { timeoutMs: 30_000, what: 'the gateway’s server span of the refused request' },
    );

    // No body text: not the phrase, not its first characters, in any span, attribute or event.
    const everything = collector.exports.join('\n');
    for (const fragment of ['zebra', 'quar', 'lemon'])
      expect({ fragment, found: everything.includes(fragment) }).toEqual({ fragment, found: false });

    // Its own trace: not the client's, no parent; the client's context is a link.
    expect(server.traceId).not.toBe(clientTraceId);
    expect(server.parentSpanId ?? '').toBe('');
    expect(server.links).toEqual([expect.objectContaining({ traceId: clientTraceId, spanId: clientSpanId })]);
    expect(spansOf(collector.exports).filter((span) => span.traceId === clientTraceId)).toEqual([]);
  });
});
