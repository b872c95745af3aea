/**
 * The images the Dockerfile builds: one row per target. Adding an app to the deployment is a row
 * here, its `build` script and its Dockerfile target; the tests then hold every file to it.
 */
import { bundleEntry } from '@starsgate/stack';
import { root } from './repo-root';

export interface ImageTarget {
  name: 'gateway' | 'worker' | 'sandbox' | 'migrate' | 'cli';
  workspace: string;
  /** The HTTP port it listens on (and answers /livez on), with the variable that moves it. */
  port?: { variable: string; number: number };
  /** A second listener for operators and monitoring only (the gateway's, docs/security.md attack 15). */
  operatorPort?: { variable: string; number: number };
  /** The bundle the image runs, from the workspace's `build` script (bundleEntry, @starsgate/stack). */
  entry: string;
  /** What runs: `node <entry>` unless the image names a command of its own. */
  command?: readonly string[];
  /**
   * Other workspaces the image carries beside its own (the cli image's doctor and migration runner):
   * their runtime trees (copied from `/deps/<image>`), their built dist, and plain folders.
   */
  alongside?: {
    runtimeTrees: ReadonlyArray<{ image: string; workspace: string }>;
    dists: readonly string[];
    folders: readonly string[];
  };
}

/** The COPY instructions of a target's stage (argument text, as the Dockerfile reads). */
export function expectedCopies(target: ImageTarget): string[] {
  return [
    ...(target.alongside?.runtimeTrees ?? []).map(
      ({ image }) => `--from=runtime-deps /deps/${image}/node_modules ./node_modules`,
    ),
    `--from=runtime-deps /deps/${target.name}/node_modules ./node_modules`,
    `--from=build /app/${target.workspace}/dist ./${target.workspace}/dist`,
    ...(target.alongside?.folders ?? []).map((folder) => `--from=build /app/${folder} ./${folder}`),
    ...(target.alongside?.dists ?? []).map((workspace) => `--from=build /app/${workspace}/dist ./${workspace}/dist`),
  ];
}

export const imageTargets: ImageTarget[] = (
  [
    {
      name: 'gateway',
      workspace: 'apps/gateway',
      port: { variable: 'PORT', number: 8080 },
      operatorPort: { variable: 'ADMIN_PORT', number: 8081 },
    },
    { name: 'worker', workspace: 'apps/worker', port: { variable: 'WORKER_METRICS_PORT', number: 9464 } },
    { name: 'sandbox', workspace: 'apps/sandbox', port: { variable: 'SANDBOX_PORT', number: 8090 } },
    { name: 'migrate', workspace: 'packages/db' },
    {
      name: 'cli',
      workspace: 'apps/cli',
      command: ['starsgate', '--help'],
      alongside: {
        runtimeTrees: [{ image: 'worker', workspace: 'apps/worker' }],
        dists: ['apps/worker', 'packages/db'],
        folders: ['apps/cli/bin'],
      },
    },
  ] as const
).map((target) => ({ ...target, entry: bundleEntry(target.workspace, root).bundle }));
