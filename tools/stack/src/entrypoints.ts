/**
 * Where each service starts: its bundle (`npm run build`, as the images run it) or its source
 * through tsx. A bundle is only used fresh: one older than a file it is built from (its app's
 * sources and pages, the workspace packages' `src/`, the migrations) is rebuilt through turbo first, so a
 * test, chaos or `npm start -- --from=build` after an edit never runs the code before the edit.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * The entry a workspace's `build` script bundles and the file it writes, read from the script
 * (`node ../../scripts/build/bundle.mjs src/main.ts` → src/main.ts and dist/main.js): the one
 * place a service's entry is named, for the stacks here and the images' tests.
 */
export function bundleEntry(workspace: string, root = REPO_ROOT): { source: string; bundle: string } {
  const manifest = JSON.parse(readFileSync(path.join(root, workspace, 'package.json'), 'utf8')) as {
    scripts?: { build?: string };
  };
  const source = /bundle\.mjs\s+(\S+)/.exec(manifest.scripts?.build ?? '')?.[1];
  if (!source) throw new Error(`${workspace}'s build script does not run scripts/build/bundle.mjs`);
  return { source: `${workspace}/${source}`, bundle: `${workspace}/dist/${path.basename(source, '.ts')}.js` };
}

const SERVICES = ['gateway', 'worker', 'sandbox'] as const;
export type ServiceKind = (typeof SERVICES)[number];

const serviceEntries = SERVICES.map((kind) => [kind, bundleEntry(`apps/${kind}`)] as const);

/** Each service's bundle (`npm run build`, as the images run it). */
export const ENTRYPOINTS = Object.fromEntries(serviceEntries.map(([kind, entry]) => [kind, entry.bundle])) as Record<
  ServiceKind,
  string
>;

/** The same processes from their sources, run through tsx (no build needed). */
export const SOURCE_ENTRYPOINTS = Object.fromEntries(
  serviceEntries.map(([kind, entry]) => [kind, entry.source]),
) as Record<ServiceKind, string>;

/**
 * The files a build reads, by extension: not what else lives beside them, such as the Python
 * SDK's `__pycache__` under packages/sdk-python/src, which its tests write mid-run (a bundle judged
 * stale by it was rebuilt under the suites running it).
 */
const BUILD_INPUT = /\.(ts|tsx|json|css|html|sql)$/;

/** The newest modification time of a build input under `dir` (0 when there is none). */
function newestUnder(dir: string): number {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && BUILD_INPUT.test(entry.name))
      newest = Math.max(newest, statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

/** What a workspace's build reads: its sources and pages, the workspace packages it bundles, the migrations. */
function buildInputs(workspace: string, root: string): string[] {
  const packages = path.join(root, 'packages');
  return [
    ...['src', 'admin-ui', 'web'].map((folder) => path.join(root, workspace, folder)),
    path.join(packages, 'db/migrations'),
    ...readdirSync(packages).map((name) => path.join(packages, name, 'src')),
  ];
}

/**
 * Whether `entry` (a workspace's built file, e.g. apps/worker/dist/main.js) exists and is newer
 * than every file the workspace's build reads (in `root`, the checkout by default).
 */
export function buildIsFresh(workspace: string, entry: string, root = REPO_ROOT): boolean {
  const built = statSync(path.join(root, entry), { throwIfNoEntry: false })?.mtimeMs;
  return built !== undefined && buildInputs(workspace, root).every((dir) => newestUnder(dir) <= built);
}

/** Whether the service's bundle exists and is newer than every file it is built from. */
export function bundleIsFresh(kind: ServiceKind, root = REPO_ROOT): boolean {
  return buildIsFresh(`apps/${kind}`, ENTRYPOINTS[kind], root);
}

const checked = new Set<string>();
const BUILD_LOCK = path.join(
  tmpdir(),
  `starsgate-build-${createHash('sha1').update(REPO_ROOT).digest('hex').slice(0, 12)}.lock`,
);

/**
 * Runs `build` while holding a lock file that every process of this checkout takes for its check
 * and build: parallel test workers that all find a bundle stale rebuild it once, and none starts
 * a bundle while another process's build has removed it.
 */
function underBuildLock<T>(build: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      closeSync(openSync(BUILD_LOCK, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock older than any build is one whose process died holding it.
      const lock = statSync(BUILD_LOCK, { throwIfNoEntry: false });
      if (lock && Date.now() - lock.mtimeMs > 300_000) rmSync(BUILD_LOCK, { force: true });
      Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    return build();
  } finally {
    rmSync(BUILD_LOCK, { force: true });
  }
}

/**
 * The absolute path of `entry`, a file `workspace`'s build writes, built first (`turbo run build`
 * for that workspace) when missing or older than its sources. A build that is fresh is not run
 * again: even a turbo cache hit rewrites the outputs, under the processes running them.
 */
export function freshBuild(workspace: string, entry: string): string {
  if (!checked.has(entry) && !buildIsFresh(workspace, entry))
    underBuildLock(() => {
      if (buildIsFresh(workspace, entry)) return;
      execFileSync(
        process.execPath,
        [
          path.join(REPO_ROOT, 'node_modules/turbo/bin/turbo'),
          'run',
          'build',
          `--filter=./${workspace}`,
          '--output-logs=errors-only',
        ],
        {
          cwd: REPO_ROOT,
          stdio: ['ignore', 'ignore', 'inherit'],
          env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
        },
      );
    });
  checked.add(entry);
  return path.join(REPO_ROOT, entry);
}

/** The absolute path of the service's bundle, built first when missing or older than its sources. */
export function freshBundle(kind: ServiceKind): string {
  return freshBuild(`apps/${kind}`, ENTRYPOINTS[kind]);
}
