import { SpanStatusCode } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { RedactingSpanExporter } from '../src/tracing/redacting-exporter';

const MNEMONIC =
  'abandon ability able about above absent absorb abstract absurd abuse access accident acoustic acquire across act';

describe('RedactingSpanExporter', () => {
  it('cuts credentials from URLs, drops credential attributes and redacts secret-shaped text before export', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new RedactingSpanExporter(memory))],
    });
    const span = provider.getTracer('test').startSpan('fragment.initRequest', {
      attributes: {
        'url.full': 'https://toncenter.com/api/v2/sendBoc?api_key=0123456789abcdef&hash=deadbeefcafe01&limit=5',
        'http.request.header.cookie': 'stel_ssid=1234; stel_token=abcdef',
        'starsgate.note': `seed was ${MNEMONIC}`,
        'starsgate.key': 'unrelated',
        'server.port': 443,
      },
    });
    span.addEvent('exception', { 'exception.message': `bad seed ${MNEMONIC}` });
    span.setStatus({ code: SpanStatusCode.ERROR, message: `failed for ${MNEMONIC}` });
    span.end();
    await provider.forceFlush();

    const [exported] = memory.getFinishedSpans();
    expect(exported!.attributes['url.full']).toBe(
      'https://toncenter.com/api/v2/sendBoc?api_key=[redacted]&hash=[redacted]&limit=5',
    );
    expect(exported!.attributes['http.request.header.cookie']).toBe('[redacted]');
    expect(exported!.attributes['server.port']).toBe(443);
    const text = JSON.stringify([exported!.attributes, exported!.events, exported!.status]);
    expect(text).not.toContain('abandon ability able');
    expect(text).not.toContain('0123456789abcdef');
    expect(text).not.toContain('stel_token=abcdef');
    await provider.shutdown();
  });

  it('passes the export result through', (done) => {
    const inner = new InMemorySpanExporter();
    new RedactingSpanExporter(inner).export([], (result: ExportResult) => {
      expect(result.code).toBe(0);
      done();
    });
  });
});
