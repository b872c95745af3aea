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
    description: "Password of compose's PostgreSQL owner role (starsgate), which `migrate` connects as. Required.",
  }),
  POSTGRES_APP_PASSWORD: string({
    secret: true,
    description:
      "Password of the apps' DML-only role (starsgate_app), which `migrate` creates on first run with it; the gateway and the worker get a DATABASE_URL built from it. Required. Changing it later needs `ALTER ROLE starsgate_app PASSWORD ...` (migrate never alters an existing role).",
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

export type Reader = ProcessName | 'compose';

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
