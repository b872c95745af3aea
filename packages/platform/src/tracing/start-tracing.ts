/**
 * OpenTelemetry tracing for a service process, off unless an OTLP endpoint is configured
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; the other standard
 * `OTEL_*` variables apply: service name, resource attributes, headers, protocol, sampler).
 *
 * Import this module, and call startTracing, before anything else in a process: the
 * instrumentations patch `http`, Express, `pg`, ioredis and undici as they are first required.
 * It is its own entry point (`@starsgate/platform/start-tracing`) so that loading it loads none of
 * them.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter as OtlpHttpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpHttpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { markTracingEnabled } from '../observability/tracing';
import { RedactingSpanExporter } from './redacting-exporter';

export interface Tracing {
  shutdown(): Promise<void>;
}

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** `http/protobuf` (the OTLP default, what Jaeger and Tempo take on :4318) or `http/json`. */
function exporterFor(env: NodeJS.ProcessEnv) {
  const protocol = env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol === 'http/json') return new OtlpHttpJsonExporter();
  if (protocol === 'http/protobuf') return new OtlpHttpProtobufExporter();
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, got "${protocol}"`);
}

/** Starts the SDK when configured; undefined (and nothing loaded or patched) otherwise. */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!tracingConfigured(env)) return undefined;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    traceExporter: new RedactingSpanExporter(exporterFor(env)),
    instrumentations: [
      // Probes and scrapes would be most of the spans and say nothing about a purchase.
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => /^\/(livez|readyz|metrics)\b/.test(request.url ?? ''),
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
