import { DATABASE_URL_VARIABLE, finishConfig, readEnvironment } from '@starsgate/platform/environment';

/** Every variable the migrate CLI reads. */
export const MIGRATE_VARIABLES = { DATABASE_URL: DATABASE_URL_VARIABLE } as const;

export function loadMigrateConfig(env: NodeJS.ProcessEnv = process.env): { databaseUrl: string } {
  const { values, problems } = readEnvironment(MIGRATE_VARIABLES, env);
  finishConfig(problems);
  return { databaseUrl: values.DATABASE_URL };
}
