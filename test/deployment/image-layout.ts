/**
 * An image's filesystem without a container engine: the app's runtime node_modules (as the
 * Dockerfile's runtime-deps stage cuts them) and its built dist under one folder, the image's
 * WORKDIR, started with the target's CMD and ENV, and probed with its HEALTHCHECK command.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { root } from './repo-root';
import { effectiveInstructions, readDockerfile } from './dockerfile';
import { freshBuild } from '@starsgate/stack';
import { imageTargets, type ImageTarget } from './image-targets';

/**
 * Every image's bundle, built first where older than its sources (`freshBuild`): the tests run what
 * production runs. Not `turbo run build` on every run: a cache hit rewrites the bundles under the
 * suites running them beside this one.
 */
export function buildApps(): void {
  for (const target of imageTargets) freshBuild(target.workspace, target.entry);
}

export interface ImageLayout {
  dir: string;
  remove(): void;
}

const copyRuntimeTree = (workspace: string, dir: string) =>
  execFileSync(process.execPath, ['scripts/build/copy-runtime-deps.mjs', '--link', workspace, dir], {
    cwd: root,
    stdio: 'ignore',
  });

export function assembleImage(target: ImageTarget): ImageLayout {
  const dir = mkdtempSync(path.join(tmpdir(), `starsgate-image-${target.name}-`));
  const scratch: string[] = [];
  const trees = target.alongside?.runtimeTrees ?? [];
  if (trees.length === 0) copyRuntimeTree(target.workspace, dir);
  else {
    // As the Dockerfile's COPY instructions do: the trees laid over one another in one node_modules.
    for (const workspace of [...trees.map((tree) => tree.workspace), target.workspace]) {
      const tree = mkdtempSync(path.join(tmpdir(), `starsgate-tree-`));
      scratch.push(tree);
      copyRuntimeTree(workspace, tree);
      cpSync(path.join(tree, 'node_modules'), path.join(dir, 'node_modules'), { recursive: true, force: false });
    }
  }
  for (const folder of [
    `${target.workspace}/dist`,
    ...(target.alongside?.dists ?? []).map((workspace) => `${workspace}/dist`),
    ...(target.alongside?.folders ?? []),
  ])
    cpSync(path.join(root, folder), path.join(dir, folder), { recursive: true });
  for (const tree of scratch) rmSync(tree, { recursive: true, force: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The ENV the target's stages set (`ENV A=1 B=2`), in order. */
export function imageEnvironment(target: ImageTarget): Record<string, string> {
  const env: Record<string, string> = {};
  for (const instruction of effectiveInstructions(readDockerfile().stages, target.name))
    if (instruction.keyword === 'ENV')
      for (const [, key, quoted, bare] of instruction.argument.matchAll(/(\w+)=(?:"([^"]*)"|(\S*))/g))
        env[key!] = quoted ?? bare!;
  return env;
}

function execForm(keyword: 'CMD' | 'HEALTHCHECK', target: ImageTarget): string[] {
  const instruction = effectiveInstructions(readDockerfile().stages, target.name)
    .filter((candidate) => candidate.keyword === keyword)
    .at(-1)!;
  return JSON.parse(instruction.argument.slice(instruction.argument.indexOf('['))) as string[];
}

export interface RunningImage {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * Whether this machine can run a process with `/` remounted read-only in a mount namespace of its
 * own (root on Linux), as `readOnlyRootFilesystem: true` and compose's `read_only` run the images.
 */
export const readOnlyRootAvailable: boolean =
  spawnSync(
    'unshare',
    ['--mount', 'sh', '-c', 'mount -o remount,ro,bind / && ! touch /.starsgate-rw-probe 2>/dev/null'],
    {
      stdio: 'ignore',
    },
  ).status === 0;

/** `command args…` with `/` read-only except `writable` (volumes), when the machine allows it. */
function onReadOnlyRoot(command: string, args: string[], writable: string[]): [string, string[]] {
  if (!readOnlyRootAvailable) return [command, args];
  const volumes = writable
    .map((dir) => `mount --bind '${dir}' '${dir}' && mount -o remount,rw,bind '${dir}' && `)
    .join('');
  // unshare and sh exec in place: the app keeps the PID, so signals reach it as in a container.
  return [
    'unshare',
    ['--mount', 'sh', '-c', `mount -o remount,ro,bind / && ${volumes}exec "$@"`, 'sh', command, ...args],
  ];
}

/**
 * Runs the target's CMD in the layout with the image's ENV plus `env` (no tsx, no sources), on a
 * read-only root filesystem where the machine allows it, with `writable` folders as its volumes.
 */
export function startImage(
  target: ImageTarget,
  layout: ImageLayout,
  env: Record<string, string>,
  options: { readOnlyRoot?: boolean; writable?: string[] } = {},
): RunningImage {
  const [node, ...cmd] = execForm('CMD', target);
  const [command, args] = options.readOnlyRoot
    ? onReadOnlyRoot(process.execPath, cmd, options.writable ?? [])
    : [node === 'node' ? process.execPath : node!, cmd];
  const child = spawn(command, args, {
    cwd: layout.dir,
    env: { PATH: process.env.PATH, ...imageEnvironment(target), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-50_000));
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/** The Dockerfile's HEALTHCHECK command, run as Docker would inside the container; true on exit 0. */
export function healthCheck(target: ImageTarget, layout: ImageLayout, env: Record<string, string>): boolean {
  const [command, ...args] = execForm('HEALTHCHECK', target);
  const result = spawnSync(command === 'node' ? process.execPath : command!, args, {
    cwd: layout.dir,
    env: { PATH: process.env.PATH, ...imageEnvironment(target), ...env },
    timeout: 5_000,
  });
  return result.status === 0;
}
