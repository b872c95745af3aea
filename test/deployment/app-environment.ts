/**
 * Every environment variable each deployable process reads, found two ways: the config loaders
 * are run against a recording environment (exact, including variables read through helpers), and
 * the sources are scanned for direct `process.env.NAME` / `env['NAME']` reads outside the loaders.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadGatewayConfig } from '@starsgate/gateway';
import { loadPriceRefresherConfig, loadWorkerConfig } from '@starsgate/worker';

export const root = path.resolve(__dirname, '../..');

export type Process = 'gateway' | 'worker' | 'sandbox' | 'migrate';

/** Read only by tests (crash injection), never set by a deployment. */
export const TEST_ONLY_VARIABLES = new Set(['STARSGATE_CRASH_AT']);

/** Read by the gateway only to refuse it in production: the key that opens secrets is the worker's (docs/security.md). */
export const GATEWAY_REFUSED_VARIABLES = new Set(['STARSGATE_SECRET_KEY']);

/** Names a loader reads, under a development and a production environment (some reads are conditional). */
function recordReads(load: (env: NodeJS.ProcessEnv) => unknown): Set<string> {
  const names = new Set<string>();
  for (const base of [{}, { NODE_ENV: 'production' }] as NodeJS.ProcessEnv[]) {
    const recording = new Proxy(base, {
      get(target, key) {
        if (typeof key === 'string') names.add(key);
        return target[key as string];
      },
    });
    try {
      load(recording);
    } catch {
      // A ConfigError for the missing production settings: the reads before it were recorded.
    }
  }
  return names;
}

function sourceFiles(dir: string, except?: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === except ? [] : sourceFiles(file);
    return name.endsWith('.ts') && name !== 'testing.ts' ? [file] : [];
  });
}

/** Direct reads in a folder's sources (but not in its subfolder `except`): `process.env.NAME`, `process.env['NAME']` and `env['NAME']` of `const env = process.env`. */
export function directReads(folder: string, except?: string): Set<string> {
  const names = new Set<string>();
  for (const file of sourceFiles(path.join(root, folder), except)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/process\.env\.([A-Z][A-Z0-9_]*)|\benv\[['"]([A-Z][A-Z0-9_]*)['"]\]/g))
      names.add((match[1] ?? match[2])!);
  }
  return names;
}

const union = (...sets: Iterable<string>[]) => new Set(sets.flatMap((set) => [...set]));

export function appEnvironment(): Record<Process, Set<string>> {
  const shared = union(
    directReads('packages/platform/src'),
    // Not its `cli/`: the migrate image's entry point, whose variables are the migrate process's.
    directReads('packages/db/src', 'cli'),
    directReads('packages/domain/src'),
    directReads('packages/fragment/src'),
    directReads('packages/ton/src'),
  );
  const gateway = new Set(
    [...union(recordReads(loadGatewayConfig), directReads('apps/gateway/src'), shared)].filter(
      (name) => !GATEWAY_REFUSED_VARIABLES.has(name),
    ),
  );
  const worker = union(
    recordReads((env) => loadWorkerConfig(env)),
    recordReads(loadPriceRefresherConfig),
    directReads('apps/worker/src'),
    shared,
  );
  const sandbox = directReads('apps/sandbox/src');
  const migrate = union(directReads('packages/db/src/cli'), directReads('packages/db/src'));
  return { gateway, worker, sandbox, migrate };
}
