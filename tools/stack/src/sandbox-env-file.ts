import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SHARED_VARIABLES } from '@starsgate/platform';

/** Where `npm start` leaves the environment it gave the services: `$STARSGATE_DATA_DIR/sandbox.env`. */
export const SANDBOX_ENV_FILE = 'sandbox.env';

const quoted = (value: string): string => (value.includes("'") ? JSON.stringify(value) : `'${value}'`);

/**
 * Writes what the launcher gave the services (upstream URLs, the demo Fragment login, receiving
 * addresses, keys …) and the shared variables they inherit from its own environment (DATABASE_URL,
 * REDIS_URL …) as a dotenv file, mode 0600: `npm run doctor` run with nothing configured checks
 * this environment (apps/worker/src/doctor/doctor-environment.ts).
 */
export function writeSandboxEnvFile(
  file: string,
  given: Readonly<Record<string, string | undefined>>,
  inherited: NodeJS.ProcessEnv,
): void {
  const env: Record<string, string | undefined> = { ...given };
  for (const name of Object.keys(SHARED_VARIABLES)) env[name] ??= inherited[name];
  const lines = Object.entries(env)
    .filter(([, value]) => value !== undefined && value !== '')
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, value]) => `${name}=${quoted(value!)}`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `# Written by \`npm start\`: the environment it gave the gateway and the worker. Holds keys: keep it private.\n${lines.join('\n')}\n`,
    { mode: 0o600 },
  );
  chmodSync(file, 0o600);
}
