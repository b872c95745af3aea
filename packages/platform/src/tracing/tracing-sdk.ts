/**
 * The OpenTelemetry SDK and its instrumentations, loaded by start-tracing.ts only when tracing is
 * configured: they take seconds to load and tens of MB of memory that a process without tracing
 * should not pay at every start.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpHttpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { linkClientTraceContext } from '../observability/client-trace-context';
import { markTracingEnabled } from '../observability/tracing';
import { RedactingSpanExporter } from './redacting-exporter';
import type { Tracing } from './start-tracing';

/** `http/protobuf` (the OTLP default, what Jaeger and Tempo take on :4318) or `http/json`. */
function exporterFor(env: NodeJS.ProcessEnv) {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'http/json') return new OtlpHttpJsonExporter();
  if (protocol === 'http/protobuf') return new OtlpHttpProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "${protocol}"`);
}

export function startTracingSdk(serviceName: string, env: NodeJS.ProcessEnv): Tracing {
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new RedactingSpanExporter(exporterFor(env)),
    instrumentations: [
      // Probes and scrapes would be most of the spans and say nothing about a purchase.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(livez|readyz|metrics)\b/.test(request.url ?? ''),
        // A public request's own trace links the one its client named (docs/security.md, attack 23).
        requestHook: linkClientTraceContext,
      }),
      new ExpressInstrumentation(),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
      new IORedisInstrumentation(),
      new UndiciInstrumentation(),
    ],
  });
  sdk.start();
  markTracingEnabled();
  return { shutdown: () => sdk.shutdown() };
}
