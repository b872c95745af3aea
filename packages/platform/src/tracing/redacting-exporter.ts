/**
 * Every span passes through this before it leaves the process: credentials in URLs (API keys,
 * Fragment's per-session hash, tokens) are cut from query strings, attributes named like
 * credentials are dropped, and every string runs through the log redactor (mnemonics, Base64 keys).
 * Instrumentations record no headers or SQL parameters by default; this is the net behind that.
 */
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';
import { REDACTED, redactSecretText } from '../logging/redact-secrets';

const CREDENTIAL_PARAM = /([?&](?:api_key|apikey|key|hash|token|access_token|secret|password)=)[^&#\s]*/gi;
const CREDENTIAL_NAME = /(cookie|authorization|api[_-]?key|token|secret|password|seed|mnemonic)/i;

function redactString(value: string): string {
  return redactSecretText(value.replace(CREDENTIAL_PARAM, `$1${REDACTED}`));
}

function redactValue(value: AttributeValue): AttributeValue {
  if (typeof value === 'string') return redactString(value);
  if (Array.isArray(value))
    return value.map((item) => (typeof item === 'string' ? redactString(item) : item)) as AttributeValue;
  return value;
}

export function redactAttributes(attributes: Attributes): Attributes {
  const out: Attributes = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    out[name] = CREDENTIAL_NAME.test(name) ? REDACTED : redactValue(value);
  }
  return out;
}

function redactSpan(span: ReadableSpan): ReadableSpan {
  return Object.create(span, {
    name: { value: redactString(span.name) },
    attributes: { value: redactAttributes(span.attributes) },
    events: {
      value: span.events.map((event) => ({
        ...event,
        ...(event.attributes ? { attributes: redactAttributes(event.attributes) } : {}),
      })),
    },
    status: {
      value: span.status.message ? { ...span.status, message: redactString(span.status.message) } : span.status,
    },
  }) as ReadableSpan;
}

export class RedactingSpanExporter implements SpanExporter {
  constructor(private readonly inner: SpanExporter) {}

  export(spans: ReadableSpan[], resultCallback: (result: ExportResult) => void): void {
    this.inner.export(spans.map(redactSpan), resultCallback);
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
