/**
 * The declared environment of every process (each app's own schema, shared variables composed
 * from @starsgate/platform), and the variables only docker compose reads: the one source of
 * `.env.example` and docs/configuration.md (`npm run config:docs`) and of the deployment tests.
 */
import { MIGRATE_VARIABLES } from '@starsgate/db';
import { GATEWAY_VARIABLES } from '@starsgate/gateway';
import {
  integer,
  port,
  string,
  type EnvironmentVariable,
  type EnvironmentVariables,
  type ProcessName,
} from '@starsgate/config';
import { SANDBOX_VARIABLES } from '@starsgate/sandbox';
import { WORKER_VARIABLES } from '@starsgate/worker';

export const PROCESS_VARIABLES: Record<ProcessName, EnvironmentVariables> = {
  gateway: GATEWAY_VARIABLES,
  worker: WORKER_VARIABLES,
  sandbox: SANDBOX_VARIABLES,
  migrate: MIGRATE_VARIABLES,
};

/** docker-compose.yml reads these; the apps do not. */
export const COMPOSE_VARIABLES: EnvironmentVariables = {
  POSTGRES_PASSWORD: string({
    secret: true,
    defaultText: 'starsgate-demo (the sandbox demo)',
    description:
      "Password of compose's PostgreSQL owner role (starsgate), which `migrate` connects as. Unset: a published demo password, for the sandbox only: set your own for anything else.",
  }),
  POSTGRES_APP_PASSWORD: string({
    secret: true,
    defaultText: 'starsgate-app-demo (the sandbox demo)',
    description:
      "Password of the apps' DML-only role (starsgate_app), which `migrate` creates on first run with it; the gateway and the worker get a DATABASE_URL built from it. Unset: a published demo password, for the sandbox only. Changing it later needs `ALTER ROLE starsgate_app PASSWORD ...` (migrate never alters an existing role).",
  }),
  REDIS_PASSWORD: string({
    secret: true,
    defaultText: 'starsgate-redis-demo (the sandbox demo)',
    description:
      "Password of compose's Redis (requirepass); the apps get a REDIS_URL built from it. Unset: a published demo password, for the sandbox only.",
  }),
  STARSGATE_HTTP_PORT: port({ default: 8080, description: 'Host port of the gateway.' }),
  STARSGATE_ADMIN_PORT: port({
    default: 8081,
    description: "Host port of the gateway's operator listener, published on the host's loopback only.",
  }),
  STARSGATE_SANDBOX_PORT: integer({
    default: 8090,
    minimum: 0,
    maximum: 65_535,
    description: 'Host port of the sandbox.',
  }),
  STARSGATE_VERSION: string({ default: 'local', description: 'Tag of the images compose builds.' }),
};

/**
 * The OpenTelemetry SDK's own variables, which the gateway and the worker pass to it (tracing is off
 * until an endpoint is set: docs/operations.md, "Tracing"). Declared here for the documentation
 * and compose; the SDK reads and checks them.
 */
export const OPENTELEMETRY_VARIABLES: EnvironmentVariables = {
  OTEL_EXPORTER_OTLP_ENDPOINT: string({
    exampleCommented: true,
    description: 'OTLP/HTTP endpoint of a collector (e.g. http://otel-collector:4318). Unset: tracing is off.',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: string({
    exampleCommented: true,
    description: 'The traces endpoint alone (a full URL ending in /v1/traces), instead of OTEL_EXPORTER_OTLP_ENDPOINT.',
  }),
  OTEL_EXPORTER_OTLP_PROTOCOL: string({
    exampleCommented: true,
    description: 'http/protobuf (the default) or http/json.',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: string({
    secret: true,
    exampleCommented: true,
    description: 'Headers sent to the collector, key=value,… (an API key of a hosted tracing service).',
  }),
  OTEL_SERVICE_NAME: string({
    exampleCommented: true,
    description: 'Overrides the service name (starsgate-gateway, starsgate-worker).',
  }),
  OTEL_RESOURCE_ATTRIBUTES: string({
    exampleCommented: true,
    description: 'Resource attributes on every span, key=value,… (deployment.environment=production).',
  }),
  OTEL_TRACES_SAMPLER: string({
    exampleCommented: true,
    description:
      'The sampler; parentbased_traceidratio with OTEL_TRACES_SAMPLER_ARG keeps a share of the traces, whole.',
  }),
  OTEL_TRACES_SAMPLER_ARG: string({
    exampleCommented: true,
    description: "The sampler's argument (0.1: one trace in ten).",
  }),
  OTEL_SDK_DISABLED: string({
    exampleCommented: true,
    description: 'true turns tracing off even with an endpoint set.',
  }),
};

/** The `starsgate` CLI's (apps/cli; docs/operations.md, "CLI"). */
export const CLI_VARIABLES: EnvironmentVariables = {
  STARSGATE_URL: string({
    default: 'http://127.0.0.1:8081',
    exampleCommented: true,
    description: "The gateway's operator listener the CLI talks to.",
  }),
  STARSGATE_ADMIN_TOKEN: string({
    secret: true,
    exampleCommented: true,
    description: "The bearer token the CLI sends (one of the gateway's STARSGATE_ADMIN_TOKENS).",
  }),
  STARSGATE_OPERATOR: string({
    exampleCommented: true,
    description: 'Name recorded in the audit trail for what the CLI changes; default $USER.',
  }),
  STARSGATE_ALLOW_INSECURE_HTTP: string({
    exampleCommented: true,
    description:
      '1 lets the CLI send the token over plain http to a host other than loopback (as --allow-insecure-http).',
  }),
};

export type Reader = ProcessName | 'compose' | 'otel' | 'cli';

/** How the documentation names a reader. */
export const readerLabel = (reader: Reader): string =>
  reader === 'otel' ? 'gateway, worker (OpenTelemetry SDK)' : reader;

export interface CatalogEntry {
  name: string;
  /** The processes that read it (not those that read it only to refuse it). */
  readers: Reader[];
  /** Its declaration in each reader; the same object unless a process declares its own (other default). */
  declarations: Array<{ reader: Reader; variable: EnvironmentVariable }>;
}

/** Every variable, in declaration order (gateway, worker, sandbox, migrate, then compose's). */
export function variableCatalog(): CatalogEntry[] {
  const entries = new Map<string, CatalogEntry>();
  const sources: Array<[Reader, EnvironmentVariables]> = [
    ...(Object.entries(PROCESS_VARIABLES) as Array<[ProcessName, EnvironmentVariables]>),
    ['compose', COMPOSE_VARIABLES],
    ['otel', OPENTELEMETRY_VARIABLES],
    ['cli', CLI_VARIABLES],
  ];
  for (const [reader, variables] of sources)
    for (const [name, variable] of Object.entries(variables)) {
      const entry = entries.get(name) ?? { name, readers: [], declarations: [] };
      entries.set(name, entry);
      entry.declarations.push({ reader, variable });
      if (!variable.refused) entry.readers.push(reader);
    }
  return [...entries.values()];
}

/** What each process needs from a deployment: its variables except those read only by tests or only to be refused. */
export function deployedVariables(process: ProcessName): Set<string> {
  return new Set(
    Object.entries(PROCESS_VARIABLES[process])
      .filter(([, variable]) => !variable.testOnly && !variable.refused)
      .map(([name]) => name),
  );
}
