import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';

/**
 * Loads a dotenv file into `env` when it exists, never overriding a variable already set (the
 * shell and the process manager win). Returns the names it set; none when the file is absent.
 */
export function loadEnvFile(file: string, env: NodeJS.ProcessEnv = process.env): string[] {
  if (!existsSync(file)) return [];
  const loaded: string[] = [];
  for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) {
    if (env[name] !== undefined) continue;
    env[name] = value;
    loaded.push(name);
  }
  return loaded;
}
