import path from 'node:path';
import { loadEnvFile } from '@starsgate/platform';
import { WORKER_VARIABLES } from '../config';

/** Set by shells and tools for every program; they say nothing about a starsgate deployment. */
const NOT_CONFIGURATION = new Set(['NODE_ENV', 'LOG_LEVEL', 'STARSGATE_DATA_DIR']);

/**
 * The environment the doctor checks: `.env` when present, as the worker loads it; and when that
 * leaves every worker variable unset, the one `npm start` wrote to `$STARSGATE_DATA_DIR/sandbox.env`
 * (tools/stack/src/sandbox-env-file.ts), so a newcomer's `npm run doctor` beside `npm start` checks
 * the running sandbox. `source` names the file used, if any.
 */
export function doctorEnvironment(
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): { env: NodeJS.ProcessEnv; source?: string } {
  const merged = { ...env };
  loadEnvFile(path.resolve(cwd, '.env'), merged);
  const configured = Object.keys(WORKER_VARIABLES).some(
    (name) => !NOT_CONFIGURATION.has(name) && (merged[name] ?? '').trim() !== '',
  );
  if (configured) return { env: merged };
  const file = path.resolve(cwd, merged.STARSGATE_DATA_DIR ?? '.data', 'sandbox.env');
  return loadEnvFile(file, merged).length > 0 ? { env: merged, source: file } : { env: merged };
}
