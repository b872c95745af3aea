/**
 * Loaded first by main.ts: tracing must patch http, Express, pg and ioredis before they load.
 * Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or the traces endpoint) is set.
 */
import { startTracing } from '@starsgate/platform/start-tracing';

export const tracing = startTracing('starsgate-gateway');
