/**
 * The OpenTelemetry tracer and its instrumentations, loaded by start-tracing.ts only when tracing is
 * configured: they take seconds to load and tens of MB of memory that a process without tracing
 * should not pay at every start.
 *
 * A NodeTracerProvider with the five instrumentations the services use, not `@opentelemetry/sdk-node`:
 * that one brings metrics and logs SDKs, every exporter (gRPC among them) and the propagators of other
 * vendors, about a hundred packages each image would carry unused. What it did that matters here is
 * done below: resource detection (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES, host, process), a
 * batch span processor (OTEL_BSP_*) and the sampler (OTEL_TRACES_SAMPLER) read from the environment
 * by the trace SDK, W3C trace context and baggage propagation, AsyncLocalStorage context.
 */
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpHttpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  detectResources,
  envDetector,
  hostDetector,
  processDetector,
  resourceFromAttributes,
} from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
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
  const exporter = new RedactingSpanExporter(exporterFor(env));
  const resource = detectResources({ detectors: [envDetector, processDetector, hostDetector] }).merge(
    resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? serviceName }),
  );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [new BatchSpanProcessor(exporter)] });
  provider.register();
  const unregister = registerInstrumentations({
    tracerProvider: provider,
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
  markTracingEnabled();
  return {
    shutdown: async () => {
      unregister();
      await provider.shutdown();
    },
  };
}
