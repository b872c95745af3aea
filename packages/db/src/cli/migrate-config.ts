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
} as const;

export interface MigrateConfig {
  databaseUrl: string;
  serviceDatabaseUrl: string | undefined;
}

export function loadMigrateConfig(env: NodeJS.ProcessEnv = process.env): MigrateConfig {
  const { values, problems } = readEnvironment(MIGRATE_VARIABLES, env);
  finishConfig(problems);
  return { databaseUrl: values.DATABASE_URL, serviceDatabaseUrl: values.SERVICE_DATABASE_URL?.trim() || undefined };
}
