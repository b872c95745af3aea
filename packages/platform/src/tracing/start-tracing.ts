/**
 * OpenTelemetry tracing for a service process, off unless an OTLP endpoint is configured
 * (`OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`; the other standard
 * `OTEL_*` variables apply: service name, resource attributes, headers, protocol, sampler).
 *
 * Import this module, and call startTracing, before anything else in a process: the
 * instrumentations patch `http`, Express, `pg`, ioredis and undici as they are first required.
 * It is its own entry point (`@starsgate/platform/start-tracing`) so that loading it loads none of
 * them, and the SDK itself (tracing-sdk.ts) is required only when tracing is on.
 */
import type * as TracingSdk from './tracing-sdk';

export interface Tracing {
  shutdown(): Promise<void>;
}

export function tracingConfigured(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT);
}

/** Starts the SDK when configured; undefined (and nothing loaded or patched) otherwise. */
export function startTracing(serviceName: string, env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!tracingConfigured(env)) return undefined;
  // A synchronous require, not import(): the instrumentations must patch before main.ts's next import.
  const sdk = require('./tracing-sdk') as typeof TracingSdk;
  return sdk.startTracingSdk(serviceName, env);
}
