import { url } from './variables';

/** The local PostgreSQL of `npm start`; production sets DATABASE_URL. */
export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/starsgate';

/** Read by every process that talks to PostgreSQL (gateway, worker, migrate). */
export const DATABASE_URL_VARIABLE = url(['postgres', 'postgresql'], {
  default: DEFAULT_DATABASE_URL,
  description: 'PostgreSQL: the source of truth. The database is created and migrated on start.',
});
