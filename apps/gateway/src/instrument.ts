/**
 * Loaded first by main.ts: `.env` (when present, never overriding what is set) so that tracing
 * sees its variables too, then tracing, which must patch http, Express, pg and ioredis before they
 * load. Off unless OTEL_EXPORTER_OTLP_ENDPOINT (or the traces endpoint) is set.
 */
// Before anything else loads: compiled packages come from the on-disk cache.
import '@starsgate/platform/compile-cache';
import path from 'node:path';
import { loadEnvFile } from '@starsgate/config';
import { startTracing } from '@starsgate/platform/start-tracing';

loadEnvFile(path.resolve('.env'));

export const tracing = startTracing('starsgate-gateway');
