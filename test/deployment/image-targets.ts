/**
 * The images the Dockerfile builds: one row per target. Adding an app to the deployment is a row
 * here, its `build` script and its Dockerfile target; the tests then hold every file to it.
 */
import { bundleEntry } from '@starsgate/stack';
import { root } from './repo-root';

export interface ImageTarget {
  name: 'gateway' | 'worker' | 'sandbox' | 'migrate';
  workspace: string;
  /** The HTTP port it listens on (and answers /livez on), with the variable that moves it. */
  port?: { variable: string; number: number };
  /** A second listener for operators and monitoring only (the gateway's, docs/security.md attack 15). */
  operatorPort?: { variable: string; number: number };
  /** The bundle the image runs, from the workspace's `build` script (bundleEntry, @starsgate/stack). */
  entry: string;
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
  ] as const
).map((target) => ({ ...target, entry: bundleEntry(target.workspace, root).bundle }));
