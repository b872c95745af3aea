import { DATABASE_URL_VARIABLE, finishConfig, readEnvironment, url } from '@starsgate/config';

/** Every variable the migrate CLI reads. */
export const MIGRATE_VARIABLES = {
  DATABASE_URL: {
    ...DATABASE_URL_VARIABLE,
    description:
      'PostgreSQL as the owner role: creates and alters the tables. The gateway and the worker connect as SERVICE_DATABASE_URL’s role.',
  },
  SERVICE_DATABASE_URL: url(['postgres', 'postgresql'], {
    description:
      'The DML-only role the gateway and the worker connect as (its user name is read from the URL): created if missing and granted row privileges on every table, now and later. Unset: no role is managed.',
    secret: true,
  }),
  GATEWAY_DATABASE_URL: url(['postgres', 'postgresql'], {
    description:
      "The gateway's own role (its user name is read from the URL), when the gateway and the worker get separate roles: created if missing and granted only what intake, /submitted and the operator API write (never the payment request the worker signs). The worker keeps SERVICE_DATABASE_URL's. Unset: no gateway role is managed.",
    secret: true,
  }),
} as const;

export interface MigrateConfig {
  databaseUrl: string;
  serviceDatabaseUrl: string | undefined;
  gatewayDatabaseUrl: string | undefined;
}

export function loadMigrateConfig(env: NodeJS.ProcessEnv = process.env): MigrateConfig {
  const { values, problems } = readEnvironment(MIGRATE_VARIABLES, env);
  finishConfig(problems);
  return {
    databaseUrl: values.DATABASE_URL,
    serviceDatabaseUrl: values.SERVICE_DATABASE_URL?.trim() || undefined,
    gatewayDatabaseUrl: values.GATEWAY_DATABASE_URL?.trim() || undefined,
  };
}
